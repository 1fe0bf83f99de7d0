import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { HEALTH_FIXTURES, runScripted } from '../bench/loops/healthRuns.js';
import { captureIo } from '../src/tools/cli/captureIo.js';
import { runCli } from '../src/tools/cli/runCli.js';
import { parseWhen } from '../src/tools/health/parseWhen.js';

const dir = mkdtempSync(join(tmpdir(), 'loopchart-health-cli-'));
const db = join(dir, 'runs.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Every timestamp the runs store is this instant, so the report is the same on every run.
vi.useFakeTimers({ toFake: ['Date'] });
vi.setSystemTime(new Date('2026-11-30T12:00:00Z'));
const store = new SqliteCheckpointStore(db);
await runScripted(store, 'invoice', HEALTH_FIXTURES.healthy);
await runScripted(store, 'summary', HEALTH_FIXTURES.stalls);
store.close();
vi.useRealTimers();

async function cli(argv: string[]) {
  const capture = captureIo(false);
  const code = await runCli(['health', '--db', db, ...argv], capture.io);
  return { code, stdout: capture.stdout(), stderr: capture.stderr() };
}

describe('loopchart health', () => {
  it('--json prints the documented report, stable from run to run', async () => {
    const { code, stdout } = await cli([
      '--json',
      '--since',
      '2026-11-01',
      '--until',
      '2026-12-01',
    ]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.format).toBe(1);
    await expect(`${JSON.stringify(report, null, 2)}\n`).toMatchFileSnapshot(
      './__snapshots__/health-report.json.snap',
    );
  });

  it('prints each loop with its numbers and its red flags', async () => {
    const { code, stdout } = await cli([]);
    expect(code).toBe(0);
    expect(stdout).toContain('loop invoice: 30 runs (30 finished)');
    expect(stdout).toMatch(/outcomes {5}proceed 23 \(77%\) · terminate_with_partial 5 \(17%\)/);
    expect(stdout).toContain('iterations   0: 17 · 1: 6 · 2: 5 · 3 (cap): 2');
    expect(stdout).toMatch(/loop invoice[\s\S]*red flags {4}none[\s\S]*loop summary/);
    expect(stdout).toMatch(
      /RED FLAG {5}Loops stall \[stalls\]: 8 of 30 finished runs \(27%\) stalled/,
    );
  });

  it('--loop, --threshold and --fail-on-flags', async () => {
    const one = await cli(['--loop', 'invoice', '--json']);
    expect(JSON.parse(one.stdout).loops.map((l: { loop: string }) => l.loop)).toEqual(['invoice']);
    const strict = await cli(['--loop', 'invoice', '--threshold', 'exhaustedShare=0.05', '--json']);
    expect(JSON.parse(strict.stdout).loops[0].flags[0].id).toBe('exhausted_then_fallback');
    expect((await cli(['--loop', 'invoice', '--fail-on-flags'])).code).toBe(0);
    const failing = await cli(['--loop', 'summary', '--fail-on-flags']);
    expect(failing.code).toBe(1);
    expect(failing.stderr.trim()).toBe('health: red flags raised (--fail-on-flags)');
  });

  it('says so when the window holds no run', async () => {
    const { code, stdout } = await cli(['--since', '2027-01-01']);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(`no loop runs in ${db} (since 2027-01-01)`);
  });

  it.each([
    [['--since', 'yesterday'], 2, /^health: --since must be a duration back from now/],
    [['--until', '2026-13-45'], 2, /^health: --until must be a duration/],
    [['--threshold', 'minRun=3'], 2, /the name must be one of minRuns, minInvalidVerdicts/],
    [['--threshold', 'exhaustedShare=2'], 2, /exhaustedShare must be a share from 0 to 1$/],
    [['--threshold', 'minRuns=0.5'], 2, /minRuns must be an integer ≥ 1$/],
    [['--db', join(dir, 'nope.db')], 2, /^health: no runs database at .*nope\.db/],
    [['--lop', 'x'], 2, /^error: unknown option '--lop' \(Did you mean --loop\?\)$/],
  ])('%j fails with one line', async (argv, exitCode, message) => {
    const capture = captureIo(false);
    const code = await runCli(
      ['health', ...(argv[0] === '--db' ? [] : ['--db', db]), ...argv],
      capture.io,
    );
    expect(code).toBe(exitCode);
    const stderr = capture.stderr().trim();
    expect(stderr.split('\n')).toHaveLength(1);
    expect(stderr).toMatch(message);
  });
});

describe('loopchart view --db', () => {
  it('serves the health page of the database on /health', async () => {
    const capture = captureIo(false);
    const exit = runCli(['view', '--port', '0', '--db', db], capture.io);
    await vi.waitFor(() => expect(capture.stdout()).toContain('loop health of'), {
      timeout: 10_000,
    });
    const url = /loop health of .*: (http:\S+)/.exec(capture.stdout())?.[1] ?? '';
    const response = await fetch(url);
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toContain('data-loop="invoice"');
    expect(page).toContain('data-flag="stalls"');
    process.emit('SIGTERM');
    expect(await exit).toBe(0);
    expect(capture.stdout().trim().split('\n').at(-1)).toBe('viewer stopped');
  });

  it('refuses a database file that does not exist, before it listens', async () => {
    const capture = captureIo(false);
    expect(await runCli(['view', '--port', '0', '--db', join(dir, 'nope.db')], capture.io)).toBe(2);
    expect(capture.stderr()).toMatch(/^view: no runs database at .*nope\.db/);
    expect(capture.stdout()).toBe('');
  });
});

describe('parseWhen', () => {
  const now = Date.parse('2026-12-01T00:00:00Z');
  it.each([
    ['90s', now - 90_000],
    ['30m', now - 1_800_000],
    ['24h', now - 86_400_000],
    ['7d', now - 7 * 86_400_000],
    ['2w', now - 14 * 86_400_000],
    ['2026-11-30', Date.parse('2026-11-30')],
    ['2026-11-30T09:30Z', Date.parse('2026-11-30T09:30Z')],
  ])('%s', (text, expected) => {
    expect(parseWhen(text, now)).toBe(expected);
  });
});
