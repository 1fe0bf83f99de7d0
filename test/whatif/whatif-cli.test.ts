import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLoop } from '../../src/runners/loop/runLoop.js';
import { SqliteCheckpointStore } from '../../src/stores/sqlite/SqliteCheckpointStore.js';
import { captureIo } from '../../src/tools/cli/captureIo.js';
import { runCli } from '../../src/tools/cli/runCli.js';
import { planned } from './plannedLoop.js';

let dir: string;
let db: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'loopchart-what-if-'));
  db = join(dir, 'runs.db');
  const store = new SqliteCheckpointStore(db);
  for (const [i, plan] of ['v', 'cv', 'ccv', 'cccv', 'cccc', 'f'].entries()) {
    await runLoop(planned(plan), 'task', { store, runId: `invoice-${i}` });
  }
  store.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(...argv: string[]) {
  const capture = captureIo();
  const code = await runCli(['what-if', '--db', db, '--loop', 'invoice', ...argv], capture.io);
  return { code, stdout: capture.stdout(), stderr: capture.stderr() };
}

describe('loopchart what-if', () => {
  it('--json prints the report of the candidate', async () => {
    const { code, stdout } = await cli(
      '--set',
      'maxRetries=1',
      '--set',
      'fallback=false',
      '--json',
    );
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.candidates[0]).toMatchObject({
      change: { maxRetries: 1, fallback: false },
      runs: 6,
      exact: 6,
      successes: { recorded: 5, kept: 2, lost: 3 },
    });
  });

  it('prints the comparison as text, and the sweep as a trade-off table', async () => {
    const single = await cli('--set', 'maxRetries=1');
    expect(single.stdout).toContain('what if maxRetries=1');
    expect(single.stdout).toContain('runs         6: 3 exact, 3 unknown beyond a recorded step');
    const sweep = await cli('--sweep', 'maxRetries=0..3', '--set', 'fallback=false');
    expect(sweep.code).toBe(0);
    expect(sweep.stdout).toContain('sweep of maxRetries');
    expect(sweep.stdout).toMatch(/maxRetries=2 fallback=false\s+ok\s+3/);
  });

  it('--fail-if is a CI gate: exit 1 naming the gate when it trips, 0 when it holds', async () => {
    const tripped = await cli(
      '--set',
      'maxRetries=1',
      '--set',
      'fallback=false',
      '--fail-if',
      'proceed < 0.95 * recorded',
    );
    expect(tripped.code).toBe(1);
    expect(tripped.stderr).toContain(
      'proceed < 0.95 * recorded: proceed would be 2 (recorded 4), limit 3.8',
    );
    const holds = await cli(
      '--set',
      'maxRetries=3',
      '--fail-if',
      'proceed < 0.95 * recorded',
      '--fail-if',
      'unknown > 0',
    );
    expect(holds.code).toBe(0);
  });

  it.each([
    [['--set', 'maxRetries=99'], /--set .*maxRetries/],
    [['--set', 'colour=red'], /--set 'colour=red': write <knob>=<value>/],
    [['--sweep', 'maxRetries=5..1'], /a range runs upwards/],
    [['--fail-if', 'proceed is low'], /--fail-if 'proceed is low'/],
  ])('a bad %j exits 2 with one line', async (argv, message) => {
    const { code, stderr } = await cli(...argv);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });
});
