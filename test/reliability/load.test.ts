import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { LOOP_STATUSES } from 'loopchart';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileLibrary, removeLibrary } from '../support/compileLibrary.js';
import { recordFigures } from './support/figures.js';

const LOOPS = 10_000;
/**
 * The child must finish both batches and exit by itself within this: a guard against a process
 * that never exits, generous because beside a CPU hog (load ~20) the batches alone took 150 s.
 */
const EXIT_WITHIN_MS = 600_000;
const child = fileURLToPath(new URL('./loadChild.mjs', import.meta.url));

interface Figures {
  loops: number;
  peakInFlight: number;
  elapsedMs: number;
  statuses: Record<string, number>;
  startHeap: number;
  baselineHeap: number;
  finalHeap: number;
  activeResources: string[];
}

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  killedByTest: boolean;
}

/** Runs the child with --expose-gc; kills it (and reports so) if it has not exited in time. */
function runChild(libraryDir: string): Promise<Exit> {
  return new Promise((resolve) => {
    const proc = spawn(
      process.execPath,
      ['--expose-gc', child, `${libraryDir}entries/index.js`, String(LOOPS)],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    let killedByTest = false;
    proc.stdout.on('data', (chunk) => (stdout += chunk));
    proc.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      killedByTest = true;
      proc.kill('SIGKILL');
    }, EXIT_WITHIN_MS);
    proc.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, killedByTest });
    });
  });
}

describe(`${LOOPS.toLocaleString('en')} concurrent loops`, () => {
  let built = { base: '', lib: '' };
  let exit: Exit;
  let figures: Figures;

  beforeAll(async () => {
    built = compileLibrary('load');
    exit = await runChild(`${built.lib}/`);
    figures = JSON.parse(exit.stdout.trim().split('\n').at(-1) || 'null');
  }, EXIT_WITHIN_MS + 30_000);

  afterAll(() => {
    removeLibrary(built.base);
    if (figures) recordFigures('load', { ...figures, exitCode: exit.code });
  });

  it('all complete with a SPEC §3 status, all in flight at once', () => {
    expect(exit.stderr).toBe('');
    expect(figures.peakInFlight).toBe(LOOPS);
    const statuses = Object.keys(figures.statuses);
    expect(statuses.every((s) => (LOOP_STATUSES as readonly string[]).includes(s))).toBe(true);
    expect(Object.values(figures.statuses).reduce((a, b) => a + b, 0)).toBe(LOOPS);
    expect(figures.statuses.aborted).toBe(LOOPS / 4);
  });

  it('after GC the heap is back within 10% of its baseline (no leaked actors, timers, listeners)', () => {
    expect(figures.finalHeap).toBeLessThanOrEqual(figures.baselineHeap * 1.1);
  });

  it('leaves no open handles: none active before exit, and the process exits by itself', () => {
    expect(figures.activeResources).toEqual([]);
    expect(exit.killedByTest).toBe(false);
    expect(exit.code).toBe(0);
  });
});
