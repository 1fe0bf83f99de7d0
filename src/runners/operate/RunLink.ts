/** How a run was started from another: continued under a top-up, or forked. Kept in its checkpoints. */
export interface RunLink {
  kind: 'continue' | 'fork';
  /** The run it started from; that run's row is never changed. */
  from: string;
  /** The original's checkpoint it started from. */
  fromSeq: number;
  /** What the original had spent, and the caps the new run got. */
  spent: { retries: number; attempts: number; cost: number };
  caps: {
    maxRetries: number;
    maxAttempts: number;
    maxCost: number | null;
    deadlineMs: number | null;
  };
}
