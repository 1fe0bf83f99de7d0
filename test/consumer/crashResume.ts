// A checkpointed loop with a review, resumed after a crash with the answer pinned to its pause.
import { expectTypeOf } from 'expect-type';
import {
  CheckpointError,
  isPausedRun,
  type LoopConfig,
  type LoopEvent,
  type PausedRun,
  resumeLoop,
  runLoop,
} from 'loopchart';
import { SqliteCheckpointStore } from 'loopchart/sqlite';

interface Order {
  customer: string;
  lines: number[];
}

const invoice: LoopConfig<Order, string> = {
  maxRetries: 2,
  idempotent: { attempt: true },
  review: { beforeProceed: true },
  attempt: ({ input }) => `${input.customer}: ${input.lines.reduce((a, b) => a + b, 0)}`,
  validate: (text) => (text.includes(':') ? { valid: true } : { valid: false }),
};

export async function runAndResume(file: string): Promise<string | undefined> {
  const store = new SqliteCheckpointStore(file);
  try {
    const first = await runLoop(
      invoice,
      { customer: 'acme', lines: [1, 2] },
      { store, runId: 'o1' },
    );
    if (!isPausedRun(first)) return first.status === 'proceed' ? first.candidate : undefined;
    expectTypeOf(first).toEqualTypeOf<PausedRun<string>>();
    if (first.pending.kind !== 'review') return undefined;
    const edited: LoopEvent<Order, string> = {
      type: 'review.modify',
      candidate: first.pending.candidate.toUpperCase(),
    };
    const next = await resumeLoop(invoice, { store, runId: 'o1', event: edited, ifSeq: first.seq });
    return next.status === 'proceed' ? next.candidate : undefined;
  } catch (error) {
    if (error instanceof CheckpointError && error.code === 'conflict') return undefined;
    throw error;
  } finally {
    store.close();
  }
}

// probe: review.modify takes an input or a candidate, not neither
type Edit = LoopEvent<Order, string>;
const order: Order = { customer: 'a', lines: [] };
// @ts-expect-error TS2322 neither input nor candidate
const neither: Edit = { type: 'review.modify' };
// @ts-expect-error TS2322 both is not one edit either
const both: Edit = { type: 'review.modify', input: order, candidate: 'a' };
// @ts-expect-error TS2322 the candidate of this loop is a string
const wrongCandidate: Edit = { type: 'review.modify', candidate: 42 };
const newInput: Edit = { type: 'review.modify', input: { customer: 'globex', lines: [3] } };
export const edits = [neither, both, wrongCandidate, newInput];
