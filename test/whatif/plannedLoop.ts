import type { LoopConfig } from '../../src/core/vocabulary/config.js';
import { withCost } from '../../src/core/vocabulary/stepResults.js';
import type { ValidationResult } from '../../src/core/vocabulary/validation.js';

const ANSWERS: Record<string, ValidationResult> = {
  v: { valid: true },
  c: { valid: false, error: { severity: 'correctable', message: 'the total is missing' } },
  f: { valid: false, error: { severity: 'fundamental', message: 'not an invoice' } },
};

/** A loop (maxRetries 3, a fallback) whose validator answers `plan` letter by letter; attempts cost 2, validations 1. */
export function planned(plan: string, extra: Partial<LoopConfig<string, string>> = {}) {
  let validations = 0;
  let attempts = 0;
  return {
    id: 'invoice',
    maxRetries: 3,
    retryDelayMs: 0,
    attempt: () => withCost(`draft ${++attempts}`, 2),
    validate: () => withCost(ANSWERS[plan[validations++] ?? 'v'] as ValidationResult, 1),
    fallback: () => 'the template',
    ...extra,
  } satisfies LoopConfig<string, string>;
}
