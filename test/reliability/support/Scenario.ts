import type {
  AbortReasonTag,
  ForgedFailureTag,
  ForgedResultTag,
  OptionsTag,
  QuestionTag,
} from './forgedValues.js';
import type { CandidateTag, ThrownTag } from './hostileValues.js';
import type { VerdictTag } from './hostileVerdicts.js';

// The shape of a generated loop: printable data (tags, not values), so that fast-check can show a
// counterexample. `scriptedLoop` turns it into a config whose steps play the scripts.

export type StepName = 'attempt' | 'validate' | 'refine' | 'fallback';

/** What a step returns: a candidate-like value, a verdict, or one of loopchart's step results. */
export type ValueSpec =
  | { kind: 'candidate'; tag: CandidateTag; text: string; json: unknown }
  | { kind: 'verdict'; tag: VerdictTag; message: string; garbage: unknown }
  | { kind: 'empty'; reason: string }
  | {
      kind: 'clarification';
      question: string;
      questionTag: QuestionTag;
      options?: string[] | OptionsTag;
    }
  | { kind: 'forged'; tag: ForgedResultTag; text: string };

/** A reported cost: none, a finite one, one near `Number.MAX_VALUE`, or one the loop must reject. */
export type CostSpec =
  | 'none'
  | number
  | 'max'
  | 'NaN'
  | 'negative'
  | 'Infinity'
  | '-Infinity'
  | 'string';

/** What a step throws: any hostile value, or an object forged as one of loopchart's failures. */
export type Thrown = ThrownTag | ForgedFailureTag;

/** What one call of a step does. `late` settles after `ms` whatever its signal says. */
export type Behaviour =
  | { how: 'return' | 'resolve'; value: ValueSpec; cost: CostSpec }
  | { how: 'late'; ms: number; value: ValueSpec; cost: CostSpec }
  | { how: 'throw' | 'reject'; thrown: Thrown; retryAfterMs: number | undefined }
  | { how: 'lateReject'; ms: number; thrown: Thrown }
  | { how: 'hang' }
  | { how: 'honourSignal' };

/** One generated loop: its config, input, abort plan and a script per step. */
export interface Scenario {
  input: { tag: CandidateTag; text: string; json: unknown };
  maxRetries: number;
  maxAttempts: number | undefined;
  maxCost: number | undefined;
  hasRefine: boolean;
  hasFallback: boolean;
  idempotent: boolean | Partial<Record<StepName, boolean>>;
  stall: false | { after: number; on: 'candidate-and-verdict' | 'verdict' } | undefined;
  trace: boolean | undefined;
  review: { beforeProceed: boolean; afterFailedValidation: boolean } | undefined;
  attemptTimeoutMs: number | undefined;
  /** Bounds validate, refine and fallback; loopchart defaults it to `attemptTimeoutMs`. */
  stepTimeoutMs: number | undefined;
  classifier: 'none' | 'throws' | 'garbage' | 'alwaysTransient' | 'undefined';
  /** `afterMs: -1` aborts before the run starts. */
  abort: { afterMs: number; reason: AbortReasonTag } | undefined;
  steps: Record<StepName, Behaviour[]>;
}
