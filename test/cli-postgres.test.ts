import { runLoop } from 'loopchart';
import type { HealthReport } from 'loopchart/health';
import type { RunList } from 'loopchart/serve';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { captureIo } from '../src/tools/cli/captureIo.js';
import { runStoreName } from '../src/tools/cli/openRunStore.js';
import { runCli } from '../src/tools/cli/runCli.js';
import {
  dropSchema,
  PG_URL,
  postgresReachable,
  schemaName,
  seedSchema,
} from './support/postgresServer.js';
import { draftLoop } from './support/reviewLoops.js';

// Every command that reads stored runs opens --db through openRunStore, so each takes a
// postgres:// URL (with --schema) as well as a SQLite file. `loopchart mcp` is in mcp.test.ts,
// which runs the compiled CLI over stdio.

const reachable = await postgresReachable();
const schema = schemaName('cli');
const db = ['--db', PG_URL, '--schema', schema];

beforeAll(async () => {
  if (reachable)
    await seedSchema(schema, (store) => runLoop(draftLoop, 'memo', { store, runId: 'review' }));
});
afterAll(async () => {
  if (reachable) await dropSchema(schema);
});

async function cli(...argv: string[]) {
  const capture = captureIo(false);
  const code = await runCli(argv, capture.io);
  return { code, stdout: capture.stdout(), stderr: capture.stderr() };
}

/** Runs a command that serves until SIGTERM; `use` gets the URL it printed. */
async function serving(argv: string[], printed: RegExp, use: (url: string) => Promise<void>) {
  const capture = captureIo(false);
  const exit = runCli(argv, capture.io);
  let url = '';
  await vi.waitFor(
    () => {
      url = printed.exec(capture.stdout())?.[1] ?? '';
      expect(url, capture.stderr()).not.toBe('');
    },
    { timeout: 15_000 },
  );
  try {
    await use(url);
  } finally {
    process.emit('SIGTERM');
  }
  expect(await exit).toBe(0);
  expect(capture.stderr()).toBe('');
}

describe.skipIf(!reachable)('the CLI on a postgres:// --db', () => {
  it('runs list', async () => {
    const { code, stdout, stderr } = await cli('runs', 'list', ...db, '--json');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject([{ runId: 'review', status: 'paused' }]);
  });

  it('runs show', async () => {
    const { code, stdout, stderr } = await cli('runs', 'show', 'review', ...db);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/paused/);
    expect(stdout).toContain('draft of memo');
  });

  it('health', async () => {
    const { code, stdout, stderr } = await cli('health', ...db, '--json');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as HealthReport).loops.map((loop) => loop.loop)).toEqual(['draft']);
  });

  it('view', async () => {
    await serving(['view', '--port', '0', ...db], /loop health of .*: (http:\S+)/, async (url) => {
      const page = await (await fetch(url)).text();
      expect(page).toContain('data-loop="draft"');
    });
  });

  it('serve', async () => {
    const printed = /run API: (http:\/\/\S+\/api\/runs)/;
    await serving(['serve', '--port', '0', ...db], printed, async (url) => {
      const list = (await (await fetch(url)).json()) as RunList;
      expect(list.runs.map((run) => [run.runId, run.status])).toEqual([['review', 'paused']]);
    });
  });
});

describe('runStoreName', () => {
  it.each([
    ['postgres://app:s3cret@db.internal:5432/runs', 'postgres://app:***@db.internal:5432/runs'],
    ['postgresql://app:p%40ss@db/runs', 'postgresql://app:***@db/runs'],
    ['postgres://app@db/runs', 'postgres://app@db/runs'],
    ['.loopchart/runs.db', '.loopchart/runs.db'],
  ])('shows %s as %s', (db, shown) => {
    expect(runStoreName(db)).toBe(shown);
  });
});
