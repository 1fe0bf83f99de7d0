import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clarificationRequest, runLoop } from 'loopchart';
import { runPipeline } from 'loopchart/pipeline';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureIo } from '../src/tools/cli/captureIo.js';
import { runCli } from '../src/tools/cli/runCli.js';
import { correctable, valid } from './support/scriptedSteps.js';

const dir = mkdtempSync(join(tmpdir(), 'loopchart-runs-cli-'));
const db = join(dir, 'runs.db');

async function cli(...argv: string[]) {
  const capture = captureIo(false);
  const code = await runCli(argv, capture.io);
  return { code, stdout: capture.stdout(), stderr: capture.stderr() };
}

beforeAll(async () => {
  const store = new SqliteCheckpointStore(db);
  let n = 0;
  await runLoop(
    {
      attempt: () => `draft ${++n}`,
      validate: (c) => (c === 'draft 2' ? valid : correctable('needs a date')),
      maxRetries: 2,
    },
    'memo',
    { store, runId: 'finished' },
  );
  await runLoop(
    {
      attempt: () => clarificationRequest({ question: 'Which year?\u001b[31m', options: ['2025'] }),
      validate: () => valid,
    },
    'memo',
    { store, runId: 'asking' },
  );
  const stage = (id: string) => ({ id, loop: { attempt: () => id, validate: () => valid } });
  await runPipeline(
    { id: 'report', stages: [stage('a'), { ...stage('b'), dependsOn: ['a'], checkpoint: true }] },
    'Q3',
    { store, runId: 'pipe' },
  );
  const row = await store.load('finished');
  if (row) await store.save({ ...row, runId: 'broken', seq: 1, data: row.data.slice(0, 40) });
  store.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loopchart runs', () => {
  it('lists runs newest first with status and state', async () => {
    const { code, stdout } = await cli('runs', 'list', '--db', db);
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^RUN\s+STATUS\s+STATE\s+CHECKPOINT\s+SAVED\s+MACHINE$/);
    expect(lines.slice(1).map((line) => line.split(/\s+/).slice(0, 3))).toEqual(
      expect.arrayContaining([
        ['finished', 'done', 'proceed'],
        ['asking', 'paused', 'awaitingClarification'],
        ['pipe', 'paused', expect.any(String)],
      ]),
    );
    const paused = await cli('runs', 'list', '--db', db, '--status', 'paused', '--json');
    const ids = JSON.parse(paused.stdout).map((r: { runId: string }) => r.runId);
    expect(ids.sort()).toEqual(['asking', 'pipe']);
  });

  it('shows a finished run with its outcome and trace', async () => {
    const { code, stdout } = await cli('runs', 'show', 'finished', '--db', db);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^run finished: done in proceed/);
    expect(stdout).toMatch(/outcome: proceed after 2 attempt\(s\), 1 refine cycle\(s\)/);
    expect(stdout).toMatch(/^candidate: "draft 2"$/m);
    expect(stdout).toMatch(/trace \(7 entries\):/);
    expect(stdout).toMatch(/→ refine/);
  });

  it('shows what a paused run waits for, without the escape codes it was given', async () => {
    const { code, stdout } = await cli('runs', 'show', 'asking', '--db', db);
    expect(code).toBe(0);
    expect(stdout).toMatch(/waits for an answer to: "Which year\?\\u001b\[31m"/);
    expect(stdout).toMatch(/options: "2025"/);
    expect(stdout).not.toContain('\u001b');
  });

  it('shows a pipeline run saved to the same store by its stages', async () => {
    const { code, stdout } = await cli('runs', 'show', 'pipe', '--db', db);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^pipeline run pipe: paused in /);
    expect(stdout).toMatch(/waits for a person \(checkpoint\)/);
    expect(stdout).toMatch(/layer 1 {2}a +succeeded, loop proceed \(1 attempt\(s\)\)/);
  });

  it('fails clearly on an unknown run, a corrupt row and a missing database', async () => {
    const unknown = await cli('runs', 'show', 'nope', '--db', db);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no run 'nope'/);
    const broken = await cli('runs', 'show', 'broken', '--db', db);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/is corrupt: its data is not JSON .*\(corrupt\)/);
    const missing = await cli('runs', 'list', '--db', join(dir, 'absent.db'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no runs database at .*absent\.db/);
  });

  it('defaults --db to .loopchart/runs.db', async () => {
    const { stdout } = await cli('runs', 'list', '--help');
    expect(stdout).toMatch(/--db <file\|url>[\s\S]*default:\s+"\.loopchart\/runs\.db"/);
  });
});
