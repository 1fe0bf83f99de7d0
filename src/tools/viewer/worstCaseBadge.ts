import { z } from 'zod';
import { certifySettings } from '../../core/certificate/certifyLoop.js';
import type { LoopSettings } from '../../core/vocabulary/config.js';
import { certificateBadge } from '../analysis/describeCertificate.js';

const int = (min: number, max: number) => z.number().int().min(min).max(max);
const ms = int(0, 604_800_000);
const flag = z.boolean();

/** A loop's resolved settings as an inspected run reports them: untrusted, so checked first. */
const settingsSchema = z.object({
  maxRetries: int(0, 50),
  maxAttempts: int(1, 100),
  maxCost: z.number().positive().finite().nullable(),
  retryDelayMs: ms,
  maxRetryDelayMs: ms,
  attemptTimeoutMs: ms.nullable(),
  stepTimeoutMs: ms.nullable(),
  deadlineMs: ms.nullable(),
  stall: z
    .object({ after: int(2, 50), on: z.enum(['candidate-and-verdict', 'verdict']) })
    .nullable(),
  hasFallback: flag,
  idempotent: z.object({ attempt: flag, validate: flag, refine: flag, fallback: flag }),
  review: z.object({ beforeProceed: flag, afterFailedValidation: flag }),
  trace: flag,
});

/**
 * The certificate badge of a loop run from the settings its snapshot's context holds (`undefined`
 * for any other machine, or settings out of range). A chart cannot tell loopchart's stand-in
 * refine from the user's, and a snapshot carries no cost estimates: refine calls count either way
 * and the cost is unbounded.
 */
export function worstCaseBadge(id: string, context: unknown): string | undefined {
  const settings = (context as { settings?: unknown } | null | undefined)?.settings;
  const parsed = settingsSchema.safeParse(settings);
  if (!parsed.success) return undefined;
  return certificateBadge(
    certifySettings({ id, settings: parsed.data as LoopSettings, hasRefine: true }),
  );
}
