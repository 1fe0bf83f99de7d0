import type { z } from 'zod';
import type { AnswerSchemas } from './AnswerSchemas.js';
import type { loopOptionsSchema, StepContext } from './config.js';
import type { FailureClassifier } from './failures.js';
import type { CostedResult } from './stepResults.js';
import type { ValidationError, ValidationResult } from './validation.js';

type MaybePromise<T> = T | Promise<T>;
type StepKey = 'attempt' | 'validate' | 'refine' | 'fallback';

/**
 * A loop config of any input and candidate types, for collections of loops (pipeline stages,
 * stage registries, workers). Its steps are methods, whose parameters TypeScript compares both
 * ways, so every `LoopConfig<I, C>` fits it, while a loop written inline sees `unknown`, not `any`.
 * @example const loops: Record<string, AnyLoopConfig> = { summary: summaryLoop, ledger: ledgerLoop };
 */
export interface AnyLoopConfig
  extends Omit<z.input<typeof loopOptionsSchema>, StepKey | 'classifyFailure' | 'answers'> {
  attempt(ctx: StepContext<unknown>): unknown;
  validate(
    candidate: unknown,
    ctx: StepContext<unknown>,
  ): MaybePromise<ValidationResult | CostedResult<ValidationResult>>;
  refine?(
    ctx: StepContext<unknown> & { readonly candidate: unknown; readonly error: ValidationError },
  ): unknown;
  fallback?(
    ctx: StepContext<unknown> & {
      readonly partial: unknown;
      readonly error: ValidationError | undefined;
    },
  ): unknown;
  classifyFailure?: FailureClassifier;
  answers?: AnswerSchemas<unknown, unknown>;
}
