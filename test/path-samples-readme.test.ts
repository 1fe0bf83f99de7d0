import { readFileSync } from 'node:fs';
import { getLoopPaths as scriptedPaths } from 'loopchart/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';

// docs/testing.md's "Test every path" block for a user's own loop (maxRetries 3, fallback, review) runs
// here verbatim: their samples, their real steps, their outcome handler on every path.

const readme = readFileSync(new URL('../docs/testing.md', import.meta.url), 'utf8');
const thisFile = readFileSync(new URL(import.meta.url), 'utf8');
const snippet = /\/\/ README:start\n([\s\S]*?)\/\/ README:end/.exec(thisFile)?.[1]?.trim();

// README:start
import { getLoopPaths, transitionCoverage } from 'loopchart/testing';
import { handleInvoice, invoiceLoop, invoiceSteps } from '../examples/path-samples/invoiceLoop.js';
import { invoiceSamples } from '../examples/path-samples/invoiceSamples.js';

describe('my invoice loop, on every path, with my steps and my values', () => {
  const paths = getLoopPaths(invoiceLoop, {
    input: { text: 'Paper 12.50 Ink 7.25 Total 19.75' },
    samples: invoiceSamples, // drafts by verdict, edits, a 429: typed as the loop's I and C
    realSteps: invoiceSteps, // my validate, refine, fallback and classifyFailure run on them
    onOutcome: (outcome) => expect(handleInvoice(outcome)).toMatch(/^(book|nothing|escalate)/),
  });
  for (const path of paths.filter((p) => !p.skipped)) it(path.description, () => path.replay());
  const { uncovered } = transitionCoverage(invoiceLoop, paths); // all but what no sample feeds
  it('misses only malformed', () => expect(uncovered.map((e) => e.guard)).toEqual(['isMalformed']));
});
// README:end

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the path-samples example', () => {
  it('is the README block, verbatim, of at most 15 lines', () => {
    expect(snippet).toMatch(/^import \{ getLoopPaths/);
    expect(readme).toContain(snippet);
    expect(snippet?.split('\n').length).toBeLessThanOrEqual(15);
  });

  // how long the block takes is a benchmark, not a test: `npm run bench -- pathSamples`
  it('suites a loop with maxRetries 3, a fallback and review', () => {
    expect(invoiceSteps).toMatchObject({ maxRetries: 3, review: { beforeProceed: true } });
    expect(invoiceSteps.fallback).toBeTypeOf('function');
  });

  it('shows why: the scripted paths feed values the handler cannot cope with', async () => {
    const broken: string[] = [];
    for (const path of scriptedPaths(invoiceLoop, { input: { text: 'Total 1.00' } })) {
      const { outcome } = await path.replay();
      try {
        handleInvoice(outcome as Parameters<typeof handleInvoice>[0]);
      } catch (error) {
        broken.push(`${path.status}: ${String(error)}`);
      }
    }
    expect(broken.length).toBeGreaterThan(10);
    expect(broken).toContain(
      "fallback: TypeError: Cannot read properties of undefined (reading 'toFixed')",
    );
  });

  it('runs and reports the paths replayed, the transitions covered and the paths skipped', async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      lines.push(args.join(' '));
    });
    await import('../examples/path-samples/path-samples.js');
    const printed = lines.join('\n');
    const [, replayed] =
      /^(\d+) paths replayed with the loop's own steps on its own samples$/m.exec(printed) ?? [];
    expect(Number(replayed)).toBeGreaterThan(300);
    const [, covered, total] = /^(\d+)\/(\d+) transitions covered$/m.exec(printed) ?? [];
    expect(Number(covered)).toBe(Number(total) - 1);
    expect(printed).toMatch(
      /^handled: (?=.*\bbook ×\d+)(?=.*\bescalate ×\d+)(?=.*\bnothing ×\d+)/m,
    );
    expect(printed).toMatch(
      /^\d+ paths skipped: needs samples\.candidates\.malformed; needs samples\.edits\.candidate\.malformed$/m,
    );
  });
});
