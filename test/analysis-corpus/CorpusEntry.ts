import type { AnyStateMachine } from 'xstate';
import { fromPromise } from 'xstate';

/**
 * One machine of the termination-check corpus: transcribed from public XState v5 code (structure,
 * names, guards, timers, invokes; implementations stubbed) and classified by hand before the
 * checker ran. `automated` lists the cycles the machine can go round with no outside event on any
 * lap and no budgetGuard on the way (a cap in context the checker cannot see still counts), each
 * as the set of leaf state ids it visits.
 */
export interface CorpusEntry {
  name: string;
  /** `owner/repo path@commit` */
  source: string;
  kind: 'app' | 'workflow';
  machine: AnyStateMachine;
  automated: string[][];
}

/** A promise actor that resolves at once: the stub for every fetch, save and API call. */
export const task = fromPromise(async () => undefined as unknown);
