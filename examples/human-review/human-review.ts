/**
 * Human review: a refund reply that waits for a person, across restarts.
 * - clarification: the attempt cannot tell which order to refund, so it asks
 *   (`clarificationRequest`) and the run pauses, saved in SQLite, until `clarification.answer`;
 * - review: `review: { beforeProceed: true }` pauses before an accepted reply goes out; the
 *   reviewer edits it (`review.modify` with a candidate, which is validated again), then approves
 *   it (`review.continue`);
 * - restarts: every step is a checkpoint. Each answer below opens the database afresh and calls
 *   `resumeLoop`, as a later request (or a restarted process) would. `loopchart runs show
 *   refund-ada --db <file>` prints the run at any point.
 * Run it from a clone of the repository: `npm run example -- human-review`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  clarificationRequest,
  type LoopConfig,
  type LoopEvent,
  type RunResult,
  resumeLoop,
  runLoop,
} from 'loopchart';
import { SqliteCheckpointStore } from 'loopchart/sqlite';

interface Request {
  customer: string;
  message: string;
}

const config: LoopConfig<Request, string> = {
  id: 'refundReply',
  maxRetries: 2,
  review: { beforeProceed: true },
  attempt: ({ input, answers }) => {
    const order = answers.find((a) => a.question.startsWith('Which order'))?.answer;
    if (order === undefined) {
      return clarificationRequest({
        question: 'Which order should be refunded?',
        options: ['A-1042', 'A-1077'],
        context: { customer: input.customer },
      });
    }
    return `Dear ${input.customer}, your refund for order ${String(order)} is on its way.`;
  },
  validate: (reply) =>
    /order A-\d{4}/.test(reply)
      ? { valid: true }
      : { valid: false, error: { severity: 'correctable', message: 'name the order' } },
};

const dir = mkdtempSync(join(tmpdir(), 'loopchart-human-review-'));
const file = join(dir, 'runs.db');
const runId = 'refund-ada';

/** One request of the app: open the store, do one thing to the run, close the store. */
async function request(step: (store: SqliteCheckpointStore) => Promise<RunResult<string>>) {
  const store = new SqliteCheckpointStore(file);
  try {
    const result = await step(store);
    console.log(describe(result));
    return result;
  } finally {
    store.close();
  }
}

const answer = (event: LoopEvent<Request, string>) => (store: SqliteCheckpointStore) =>
  resumeLoop(config, { store, runId, event });

function describe(result: RunResult<string>): string {
  if (result.status !== 'paused') return `${result.status}: ${result.rationale}`;
  const { pending } = result;
  return pending.kind === 'clarification'
    ? `paused, asks: ${pending.question} (${pending.options?.join(' or ')})`
    : `paused for review (${pending.reason}): ${JSON.stringify(pending.candidate)}`;
}

try {
  await request((store) =>
    runLoop(config, { customer: 'Ada', message: 'Refund please!' }, { store, runId }),
  );
  await request(answer({ type: 'clarification.answer', answer: 'A-1042' }));
  const edited = 'Dear Ada, your refund for order A-1042 (EUR 59.90) is on its way.';
  await request(answer({ type: 'review.modify', candidate: edited }));
  const done = await request(answer({ type: 'review.continue' }));
  if (done.status === 'proceed') console.log(`sent: ${done.candidate}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
