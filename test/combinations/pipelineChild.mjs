/**
 * One process of the pipeline pause test (test/combinations/pipelinePauses.test.ts): builds the
 * plan from scratch (a restarted process has only its source), then runs or resumes it on a SQLite
 * file and prints the result. Env: LIB, DB, MODE (run | resume), EVENT (JSON, resume only).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const { LIB, DB, MODE, EVENT } = process.env;
const load = (path) => import(pathToFileURL(join(LIB, path)).href);
const { clarificationRequest } = await load('entries/index.js');
const { runPipeline, resumePipeline } = await load('entries/pipeline.js');
const { SqliteCheckpointStore } = await load('entries/sqlite.js');

let attempts = 0;
const plan = {
  id: 'report',
  stages: [
    { id: 'find', loop: { attempt: () => 'rows', validate: () => ({ valid: true }) } },
    {
      id: 'ask',
      dependsOn: ['find'],
      loop: {
        attempt: ({ answers }) => {
          attempts += 1;
          return answers.length === 0
            ? clarificationRequest({ question: 'Which fiscal year?', options: ['2025', '2026'] })
            : `report for ${answers[0].answer}`;
        },
        validate: () => ({ valid: true }),
      },
    },
  ],
};
const store = new SqliteCheckpointStore(DB);
const emitted = [];
const options = { store, runId: 'p', onEvent: (event) => emitted.push(event.type) };
const result = await (MODE === 'run'
  ? runPipeline(plan, 'Q3', options)
  : resumePipeline(plan, { ...options, event: JSON.parse(EVENT) })
).catch((error) => ({ error: error.code, message: error.message }));
store.close();
const summary = {
  status: result.status ?? 'error',
  error: result.error,
  pause: result.pause && {
    reason: result.pause.reason,
    stages: result.pause.stages,
    pending: result.pause.pending,
  },
  results: result.results,
  attempts,
  emitted,
};
process.stdout.write(`${JSON.stringify(summary)}\n`);
