/**
 * One process of the answer-once tests (test/agent-once.test.ts): answers a stored shape-choice
 * brief with `resumeAgent` on a SQLite file or a Postgres schema, journalling (synchronously, so
 * it survives a SIGKILL) its start, every task, planner and stage call, and its result. Env: as
 * journaledChild.mjs, plus RUN (the run id), SHAPE (the shape chosen), IFSEQ, CLAIM_TTL_MS, GATE
 * (when set, waits for a line on stdin after `start`, so two answers can be let go together) and
 * HANG (when set, the planner never returns: the process is killed with the brief taken).
 */
import { once } from 'node:events';
import { envStore, journal, load } from '../support/journaledChild.mjs';

const { RUN, SHAPE, IFSEQ, CLAIM_TTL_MS, GATE, HANG } = process.env;
const { createAgent, resumeAgent } = await load('entries/agent.js');
const valid = () => ({ valid: true });

const agent = createAgent({
  task: {
    attempt: ({ input }) => {
      journal({ type: 'task' });
      return `answer to ${input}`;
    },
    validate: valid,
    maxRetries: 2,
  },
  router: { modelCheck: { ask: () => 'complex' }, onDisagreement: 'ask' },
  planner: {
    plan: () => {
      journal({ type: 'planner' });
      if (HANG) return new Promise(() => {});
      return JSON.stringify({ stages: [{ id: 'rate', kind: 'lookup' }] });
    },
  },
  registry: {
    lookup: {
      loop: {
        attempt: () => {
          journal({ type: 'stage' });
          return '21%';
        },
        validate: valid,
      },
    },
  },
});

const store = await envStore();
journal({ type: 'start' });
if (GATE) await once(process.stdin.setEncoding('utf8'), 'data');
const result = await resumeAgent(agent, {
  store,
  runId: RUN,
  event: { type: 'shape.choose', shape: SHAPE },
  ifSeq: Number(IFSEQ),
  claimTtlMs: Number(CLAIM_TTL_MS ?? 30_000),
}).then(
  (outcome) => ({ status: outcome.status, shape: outcome.shape }),
  (error) => ({ error: error.code ?? String(error), message: error.message }),
);
journal({ type: 'result', result });
process.stdout.write(`${JSON.stringify(result)}\n`);
await store.close?.();
