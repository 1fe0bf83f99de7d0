import {
  isClarificationRequest,
  isEmptyResult,
  readStepResult,
} from '../../core/vocabulary/stepResults.js';
import type { LoopSamples, SampleKey, VerdictLabel } from './loopSamples.js';
import { SAME_DRAFT } from './scriptedEvents.js';

/** A path event as the samples read it: its label and the event fed to the machine. */
export interface LabelledEvent {
  label: string;
  event: { type: string; [key: string]: unknown };
  /** The state the path's loop settles in after the event. */
  state?: string;
}

/** Which steps run for real in a replay: the functions given, or none. */
export interface RealStepsGiven {
  validate: boolean;
  refine: boolean;
  fallback: boolean;
}

const VERDICT_OF: Record<string, VerdictLabel> = {
  valid: 'valid',
  correctable: 'correctable',
  'correctable (same error)': 'correctable',
  fundamental: 'fundamental',
  'no diagnostic': 'noDiagnostic',
  'malformed verdict': 'malformed',
};
const VERDICTS: VerdictLabel[] = [
  'valid',
  'correctable',
  'fundamental',
  'noDiagnostic',
  'malformed',
];

/**
 * The verdict the path gives the candidate fed at `index`: the next validation's, past failed
 * validations and retry waits; undefined when the path never validates it.
 */
export function verdictAfter(
  steps: readonly LabelledEvent[],
  index: number,
): VerdictLabel | undefined {
  for (const { label, event } of steps.slice(index + 1)) {
    if (event.type === 'xstate.done.actor.validate') return VERDICT_OF[label];
    if (
      event.type !== 'xstate.error.actor.validate' &&
      event.type !== 'xstate.done.actor.retryDelay'
    )
      return undefined;
  }
  return undefined;
}

/** The candidates whose label the path needs; a candidate it never validates may be any given one. */
function candidateKey<I, C>(
  verdict: VerdictLabel | undefined,
  given: LoopSamples<I, C>['candidates'],
  prefix: 'candidates' | 'edits.candidate',
): SampleKey {
  const label = verdict ?? VERDICTS.find((key) => given?.[key] !== undefined) ?? 'valid';
  return `${prefix}.${label}`;
}

/** Whether an attempt's output is a candidate (not an empty result or a question). */
export function feedsCandidate(event: LabelledEvent['event']): boolean {
  if (event.type !== 'xstate.done.actor.attempt') return false;
  const { value } = readStepResult(event.output);
  return !isEmptyResult(value) && !isClarificationRequest(value);
}

/** The sample the event at `index` is fed from, or undefined when it needs none. */
export function sampleFor<I, C>(
  steps: readonly LabelledEvent[],
  index: number,
  samples: LoopSamples<I, C>,
  real: RealStepsGiven,
): SampleKey | undefined {
  const { event } = steps[index] as LabelledEvent;
  switch (event.type) {
    case 'xstate.done.actor.attempt':
      if (!feedsCandidate(event)) return undefined;
      return candidateKey(verdictAfter(steps, index), samples.candidates, 'candidates');
    case 'xstate.done.actor.refine':
      return real.refine ? undefined : 'refined';
    case 'xstate.done.actor.fallback':
      return real.fallback ? undefined : 'fallback';
    case 'review.modify':
      if ('input' in event) return 'edits.input';
      if (event.candidate === SAME_DRAFT) return undefined;
      return candidateKey(verdictAfter(steps, index), samples.edits?.candidate, 'edits.candidate');
    default:
      return undefined;
  }
}

/** The samples a path needs and the user did not give (the answer and errors are optional). */
export function missingSamples<I, C>(
  steps: readonly LabelledEvent[],
  samples: LoopSamples<I, C>,
  real: RealStepsGiven,
  has: (key: SampleKey) => boolean,
): SampleKey[] {
  const missing = new Set<SampleKey>();
  steps.forEach((_, index) => {
    const key = sampleFor(steps, index, samples, real);
    if (key !== undefined && !has(key)) missing.add(key);
  });
  return [...missing];
}
