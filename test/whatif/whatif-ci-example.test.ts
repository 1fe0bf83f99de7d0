import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { compileLibrary, removeLibrary } from '../support/compileLibrary.js';

const root = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'loopchart-what-if-gate-'));
const db = join(dir, 'runs.db');
let build: { base: string; lib: string };
let printed = '';

beforeAll(async () => {
  build = compileLibrary('what-if-gate', ['entries/cli.ts', 'entries/sqlite.ts']);
  spawnSync('cp', [join(root, 'package.json'), join(build.base, 'package.json')]);
  vi.stubEnv('WHAT_IF_DB', db);
  const lines: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    lines.push(args.join(' '));
  });
  await import('../../examples/what-if-gate/what-if-gate.js');
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  printed = lines.join('\n');
}, 120_000);
afterAll(() => {
  removeLibrary(build.base);
  rmSync(dir, { recursive: true, force: true });
});

function gate(knobs: string) {
  return spawnSync('sh', [join(root, 'examples/what-if-gate/ci.sh')], {
    encoding: 'utf8',
    env: {
      ...process.env,
      LOOPCHART_DB: db,
      WHAT_IF_SET: knobs,
      LOOPCHART: `${process.execPath} ${join(build.lib, 'entries/cli.js')}`,
      NO_COLOR: '1',
    },
  });
}

describe('examples/what-if-gate: the CLI gate in a CI script', () => {
  it('records a week of runs and compares two candidates from them', () => {
    expect(printed).toContain(
      'maxRetries 1: 13/15 proceed, 2 lost, cost 3600 → 3150 (15 exact, 0 unknown)',
    );
    expect(printed).toContain(
      'maxRetries 2: 14/15 proceed, 1 lost, cost 3600 → 3450 (15 exact, 0 unknown)',
    );
    expect(printed).toMatch(/^maxRetries 2: 14\/15 proceed, 1 lost/m);
  });

  it('fails the build for a change that loses successes, naming the gates that tripped', () => {
    const result = gate('maxRetries=2');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'proceed < 0.95 * recorded: proceed would be 14 (recorded 15), limit 14.25',
    );
    expect(result.stderr).toContain('lost > 0: lost would be 1');
    expect(result.stdout).toContain('what if maxRetries=2');
  });

  it('passes a change that keeps every success', () => {
    const result = gate('maxRetries=3 maxCost=1000');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
