/**
 * `loopchart serve --loops module` with a module that exports `agents`: an agent run paused for
 * its owner (saved by this process) is shown with its brief, and a `shape.choose` answer runs the
 * chosen shape inside the server's process.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAgent, runAgent } from 'loopchart/agent';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { compileLibrary, removeLibrary } from './support/compileLibrary.js';

const TOKEN = 'agent-cli-token-0123456789abcdef';
const request = 'What is the VAT rate in Spain?';
let base: string;
let lib: string;

beforeAll(() => {
  ({ base, lib } = compileLibrary('agent-serve-cli', [
    'entries/index.ts',
    'entries/cli.ts',
    'entries/agent.ts',
    'entries/sqlite.ts',
  ]));
  copyFileSync(new URL('../package.json', import.meta.url), join(base, 'package.json'));
  writeFileSync(
    join(base, 'agents.mjs'),
    `import { createAgent } from ${JSON.stringify(join(lib, 'entries/agent.js'))};
export const agents = [createAgent({
  id: 'vat',
  task: { attempt: ({ input }) => 'served answer to ' + input, validate: () => ({ valid: true }), costEstimates: { attempt: 0.02, validate: 0.001 } },
  router: { modelCheck: { ask: () => 'complex' }, onDisagreement: 'ask' },
})];
`,
  );
}, 120_000);
afterAll(() => {
  if (base) removeLibrary(base);
});

it('serves the brief and runs the chosen shape in the server', async () => {
  const db = join(base, 'runs.db');
  const store = new SqliteCheckpointStore(db);
  // the module's agent, with a step that must not run here (the answer runs in the server)
  const agent = createAgent<string>({
    id: 'vat',
    task: {
      attempt: () => {
        throw new Error('the answer must run in the server');
      },
      validate: () => ({ valid: true }),
      costEstimates: { attempt: 0.02, validate: 0.001 },
    },
    router: { modelCheck: { ask: () => 'complex' }, onDisagreement: 'ask' },
  });
  const paused = await runAgent(agent, request, { store, runId: 'vat-cli' });
  store.close();
  expect(paused.status).toBe('paused');

  const child = spawn(
    process.execPath,
    [
      join(lib, 'entries/cli.js'),
      'serve',
      '--db',
      db,
      '--port',
      '0',
      '--loops',
      join(base, 'agents.mjs'),
    ],
    { env: { ...process.env, NO_COLOR: '1', LOOPCHART_API_TOKEN: TOKEN } },
  );
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const found = /(http:\/\/127\.0\.0\.1:\d+\/)api\/runs/.exec(output);
      if (found?.[1]) resolve(found[1]);
    });
    void exited.then((code) => reject(new Error(`serve exited ${code}: ${output}`)));
  });
  try {
    const detail = await (await fetch(`${url}api/runs/vat-cli`)).json();
    expect(detail).toMatchObject({ kind: 'agent', answerWith: ['shape.choose'] });
    // the brief the server shows is the one this process stored (certificates included)
    expect(detail.choice).toEqual(JSON.parse(JSON.stringify(paused.choice)));
    expect(detail.choice.candidates.map((c: { shape: string }) => c.shape)).toEqual([
      'single-shot',
      'loop',
    ]);
    const answered = await fetch(`${url}api/runs/vat-cli/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({
        event: { type: 'shape.choose', shape: 'loop' },
        ifSeq: 1,
        wait: true,
      }),
    });
    expect(answered.status).toBe(200);
    expect(await answered.json()).toMatchObject({
      run: { kind: 'loop', status: 'done', outcome: { candidate: `served answer to ${request}` } },
    });
    expect(output).toContain('answers enabled with the token from LOOPCHART_API_TOKEN, for vat');
  } finally {
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }
}, 60_000);
