import type { LoopStatus } from '../../core/vocabulary/statuses.js';

/** Where a run ends, how many attempts and refines it made, what it cost and how long it took. */
export interface RunFigures {
  status: LoopStatus;
  attempts: number;
  iterations: number;
  cost: number;
  timeMs: number;
}

/** A run re-decided: its outcome where the record holds every step it needs, else where it stops knowing. */
export type Redecision =
  | { exact: true; outcome: RunFigures }
  | {
      exact: false;
      /** The steps the re-decided run took from the record before it needed one the record lacks. */
      beyondStep: number;
      reason: string;
      soFar: Omit<RunFigures, 'status'>;
    };
