/**
 * One process of the agent resume test (test/agent-resume.test.ts): builds the agent from scratch
 * (new functions, new counters), then runs a request or resumes the stored run on a SQLite store,
 * journalling every planner and stage call with synchronous appends. The library is loaded from
 * the directory in LIB (compiled by the test). Env: LIB, MODE (run | resume), DB, WORK, REQUEST.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const { LIB, MODE, DB, WORK, REQUEST } = process.env;
const load = (path) => import(pathToFileURL(join(LIB, path)).href);
const { createAgent, runAgent, resumeAgent } = await load('entries/agent.js');
const { SqliteCheckpointStore } = await load('entries/sqlite.js');

const journal = (entry) =>
  appendFileSync(
    join(WORK, 'journal.jsonl'),
    `${JSON.stringify({ pid: process.pid, mode: MODE, ...entry })}\n`,
  );
const valid = () => ({ valid: true });
const revenue = { acme: 1200, globex: 800 };

const plan = {
  stages: [
    { id: 'acme', kind: 'lookup', params: { company: 'acme' } },
    { id: 'globex', kind: 'lookup', params: { company: 'globex' } },
    { id: 'rank', kind: 'compare', dependsOn: ['acme', 'globex'], checkpoint: true },
    { id: 'table', kind: 'table', depends_on: ['rank'] },
  ],
};
const stageLoop = (kind, work) => ({
  attempt: ({ input }) => {
    journal({ type: 'stage', kind, input });
    return work(input);
  },
  validate: valid,
});

const agent = createAgent({
  task: { attempt: () => 'unused', validate: valid },
  planner: {
    plan: () => {
      journal({ type: 'planner' });
      return JSON.stringify(plan);
    },
  },
  registry: {
    lookup: {
      input: ({ params }) => params.company,
      loop: stageLoop('lookup', (company) => ({ company, revenue: revenue[company] })),
    },
    compare: {
      input: ({ results }) => Object.values(results),
      loop: stageLoop('compare', (rows) =>
        [...rows].sort((a, b) => b.revenue - a.revenue).map((r) => r.company),
      ),
    },
    table: {
      input: ({ results }) => results.rank,
      loop: stageLoop('table', (ranked) =>
        ranked.map((company, i) => `${i + 1}. ${company}`).join('\n'),
      ),
    },
  },
});

const store = new SqliteCheckpointStore(DB);
const outcome =
  MODE === 'run'
    ? await runAgent(agent, REQUEST, { store, runId: 'compare-q3' })
    : await resumeAgent(agent, {
        store,
        runId: 'compare-q3',
        event: { type: 'pipeline.continue' },
      });
store.close();
const { pipeline } = outcome;
process.stdout.write(
  JSON.stringify({
    status: outcome.status,
    shape: outcome.shape,
    decidedBy: outcome.decision?.decidedBy,
    trace: outcome.trace.map((entry) => [entry.state, entry.status]),
    pause: pipeline?.status === 'paused' ? pipeline.pause.reason : undefined,
    results: pipeline?.results,
  }),
);
