import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeCheckpoint } from 'loopchart/persistence';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { startViewer } from 'loopchart/viewer';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { captureIo } from '../src/tools/cli/captureIo.js';
import { runCli } from '../src/tools/cli/runCli.js';

const dir = mkdtempSync(join(tmpdir(), 'loopchart-demo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const expected = {
  'claim-incomplete-report': 'proceed',
  'claim-contradictory-plan': 'terminate_with_partial',
  'structured-output': 'proceed',
  'headline-stalled': 'stalled',
  'headline-fallback': 'fallback',
};

async function storedRuns() {
  const store = new SqliteCheckpointStore(join(dir, 'runs.db'), { readonly: true });
  try {
    const runs = await store.list();
    const records = await Promise.all(runs.map((run) => store.load(run.runId)));
    return records.map((record) => {
      if (!record) throw new Error('a listed run has no checkpoint');
      return decodeCheckpoint(record);
    });
  } finally {
    store.close();
  }
}

describe('loopchart demo', () => {
  it('runs every bundled loop end to end: a live line per step (the trace, once), the outcome', async () => {
    const capture = captureIo();
    const code = await runCli(['demo', '--dir', dir], capture.io);
    expect(capture.stderr()).toBe('');
    expect(code).toBe(0);
    const stdout = capture.stdout();
    for (const [name, status] of Object.entries(expected)) {
      expect(stdout).toMatch(new RegExp(`^ {2}✓ ${name} +${status} `, 'm'));
    }
    // one progress line per step: seq, state, attempt, key or decision, duration
    expect(stdout).toMatch(/^ {2}001 {2}attempting +attempt 1 +key [0-9a-f]{8} +\d+ ms/m);
    expect(stdout).toMatch(/^ {2}\d{3} {2}routing +attempt 1 +→ refine \(1\/3\)$/m);
    expect(stdout).toMatch(/^ {2}\d{3} {2}failed +attempt 2 +→ retry$/m);
    expect(stdout).toMatch(
      /correctable: The JSON does not match the schema \(2 issues\): - total:/,
    );
    // the outcome of each run, and its trace printed once: a live line per entry
    expect(stdout.match(/^ {2}outcome {2}/gm)).toHaveLength(5);
    const entries = (await storedRuns()).reduce((sum, run) => sum + run.trace.length, 0);
    expect(stdout.match(/^ {2}\d{3} {2}\S/gm)).toHaveLength(entries);
    expect(stdout).toMatch(/^Summary {2}✓ = the run ended as its scenario is meant to/m);
    expect(stdout).toContain(`5 runs, checkpointed after every step, in ${join(dir, 'runs.db')}`);
    expect(stdout).toContain(`5 self-contained HTML pages in ${join(dir, 'reports')}`);
    expect(stdout).toMatch(/^Viewer +npx loopchart view, then npx loopchart demo --viewer/m);
  }, 60_000);

  it('leaves each run finished in the SQLite file, with its whole trace', async () => {
    const checkpoints = await storedRuns();
    expect(Object.fromEntries(checkpoints.map((c) => [c.runId, c.state]))).toEqual(expected);
    for (const checkpoint of checkpoints) {
      expect(checkpoint.status).toBe('done');
      expect(checkpoint.trace.findLast((entry) => entry.decision)?.decision).toBe(
        expected[checkpoint.runId as keyof typeof expected],
      );
    }
  });

  it('writes a self-contained HTML report of each run', () => {
    for (const [name, status] of Object.entries(expected)) {
      const html = readFileSync(join(dir, 'reports', `${name}.html`), 'utf8');
      expect(html).toMatch(/^<!doctype html>/i);
      expect(html).toContain(status);
      expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href="http/i);
    }
  });

  it('replaces its runs when run again in the same folder', async () => {
    const capture = captureIo();
    expect(await runCli(['demo', '--dir', dir, '--only', 'headline-stalled'], capture.io)).toBe(0);
    const again = (await storedRuns()).filter((c) => c.runId === 'headline-stalled');
    expect(again).toHaveLength(1);
    expect(capture.stdout().match(/^▸ /gm)).toHaveLength(1);
  }, 60_000);

  it('shows the runs live in a running viewer with --viewer', async () => {
    const viewer = await startViewer({ port: 0 });
    try {
      const capture = captureIo();
      const argv = ['demo', '--dir', dir, '--only', 'claim-contradictory-plan'];
      expect(await runCli([...argv, '--viewer', viewer.inspectUrl], capture.io)).toBe(0);
      expect(capture.stdout()).toContain(
        `showing the runs live in the viewer at ${viewer.inspectUrl}`,
      );
      await vi.waitFor(() =>
        expect(viewer.runs().map((run) => [run.machineId, run.value])).toEqual([
          ['documentVerification', 'terminate_with_partial'],
        ]),
      );
    } finally {
      await viewer.close();
    }
  }, 60_000);

  it('goes on without an unreachable viewer, saying so once', async () => {
    const capture = captureIo();
    const argv = [
      'demo',
      '--dir',
      dir,
      '--only',
      'claim-contradictory-plan',
      '--viewer',
      'ws://127.0.0.1:9/',
    ];
    expect(await runCli(argv, capture.io)).toBe(0);
    expect(
      capture.stderr().match(/the viewer at ws:\/\/127\.0\.0\.1:9\/ is not reachable/g),
    ).toHaveLength(1);
  }, 60_000);

  it('fails on an unknown scenario name, listing the names', async () => {
    const capture = captureIo();
    expect(await runCli(['demo', '--dir', dir, '--only', 'nope'], capture.io)).toBe(2);
    expect(capture.stderr()).toMatch(
      /unknown scenario "nope"; the scenarios are claim-incomplete-report, /,
    );
  });
});
