/**
 * One process of the shape choice test (test/agent-choice.test.ts): builds an agent whose
 * heuristic (single-shot) and model check (complex → pipeline) disagree, then runs a request
 * (it pauses for the owner) or answers the stored choice on a SQLite store, journalling every
 * model check, task, planner and stage call. Answering, it reads the brief from the store and
 * chooses its candidate number PICK. Env: LIB, MODE (run | answer), DB, WORK, RUN, PICK.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const { LIB, MODE, DB, WORK, RUN, PICK } = process.env;
const load = (path) => import(pathToFileURL(join(LIB, path)).href);
const { createAgent, runAgent, resumeAgent, shapeChoiceOf } = await load('entries/agent.js');
const { SqliteCheckpointStore } = await load('entries/sqlite.js');

const journal = (type) =>
  appendFileSync(
    join(WORK, 'journal.jsonl'),
    `${JSON.stringify({ pid: process.pid, mode: MODE, run: RUN, type })}\n`,
  );
const valid = () => ({ valid: true });

const agent = createAgent({
  task: {
    attempt: ({ input }) => {
      journal('task');
      return `answer to ${input}`;
    },
    validate: valid,
    maxRetries: 2,
    costEstimates: { attempt: 0.02, validate: 0.001 },
  },
  router: {
    modelCheck: {
      ask: () => {
        journal('ask');
        return 'complex';
      },
    },
    onDisagreement: 'ask',
  },
  planner: {
    plan: () => {
      journal('planner');
      return JSON.stringify({
        stages: [{ id: 'rate', kind: 'lookup', params: { country: 'es' } }],
      });
    },
  },
  registry: {
    lookup: {
      input: ({ params }) => params.country,
      loop: {
        attempt: ({ input }) => {
          journal('stage');
          return { country: input, rate: 21 };
        },
        validate: valid,
      },
    },
  },
});

const store = new SqliteCheckpointStore(DB);
let chosen = null;
let outcome;
if (MODE === 'run') {
  outcome = await runAgent(agent, 'What is the VAT rate in Spain?', { store, runId: RUN });
} else {
  const brief = shapeChoiceOf((await store.load(RUN))?.data ?? '');
  chosen = brief?.candidates[Number(PICK)]?.shape ?? null;
  const event = { type: 'shape.choose', shape: chosen };
  outcome = await resumeAgent(agent, { store, runId: RUN, event });
}
store.close();
process.stdout.write(
  JSON.stringify({
    chosen,
    status: outcome.status,
    shape: outcome.shape ?? null,
    decidedBy: outcome.decision?.decidedBy,
    choice: outcome.choice ?? null,
    trace: outcome.trace.map((entry) => [entry.state, entry.status]),
  }),
);
