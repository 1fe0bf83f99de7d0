import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';

// docs/testing.md's "Test every path" snippet runs here verbatim, and the example script runs as CI
// runs it (`npm test`): both cover the example's loop on every path.

const readme = readFileSync(new URL('../docs/testing.md', import.meta.url), 'utf8');
const thisFile = readFileSync(new URL(import.meta.url), 'utf8');
const snippet = /\/\/ README:start\n([\s\S]*?)\/\/ README:end/.exec(thisFile)?.[1]?.trim();

// README:start
import { getLoopPaths, transitionCoverage } from 'loopchart/testing';
import { invoiceTotalLoop } from '../examples/model-based-testing/invoiceTotalLoop.js';

describe('the invoice loop, on every path', () => {
  const paths = getLoopPaths(invoiceTotalLoop, {
    input: { text: 'Paper 12.50 Ink 7.25 Total 19.75' },
  });

  for (const path of paths) it(path.description, () => path.replay());

  it('takes every transition and reaches every final state', () => {
    const coverage = transitionCoverage(invoiceTotalLoop, paths);
    expect(coverage.uncovered).toEqual([]);
    expect(coverage.unreachedFinals).toEqual([]);
  });
});
// README:end

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the model-based-testing example', () => {
  it('is the README snippet, verbatim', () => {
    expect(snippet).toMatch(/^import \{ getLoopPaths/);
    expect(readme).toContain(snippet);
  });

  it('runs and reports every path replayed and every transition covered', async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      lines.push(args.join(' '));
    });
    await import('../examples/model-based-testing/model-based-testing.js');
    const printed = lines.join('\n');
    expect(printed).toMatch(/^\d+ paths replayed, every one within its bounds$/m);
    const [, covered, total] = /^(\d+)\/(\d+) transitions covered$/m.exec(printed) ?? [];
    expect(Number(covered)).toBeGreaterThan(20);
    expect(covered).toBe(total);
    expect(printed).toMatch(/^final states never reached: none$/m);
    expect(process.exitCode ?? 0).toBe(0);
  });
});
