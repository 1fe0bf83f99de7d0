import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { entriesIn, sharedNames } from '../scripts/entryNames.mjs';

const entries = entriesIn(fileURLToPath(new URL('../src/entries', import.meta.url)));
const all = Object.values(entries).flatMap(({ values, types }) => [...values, ...types]);

/** The `after` column of docs/entries.md's table of names per entry, by entry file name. */
function documentedCounts(): Record<string, number> {
  const doc = readFileSync(new URL('../docs/entries.md', import.meta.url), 'utf8');
  const counts: Record<string, number> = {};
  for (const [, entry, after] of doc.matchAll(
    /^\| `loopchart(?:\/(\w+))?`[^|]*\| \d+ \| (\d+) \|$/gm,
  )) {
    counts[entry ?? 'index'] = Number(after);
  }
  return counts;
}

describe('the public surface', () => {
  it('exports no name on two entries', () => {
    expect(sharedNames(entries)).toEqual([]);
  });

  it("keeps the engine's internals private: its context and a step's input", () => {
    expect(all).not.toContain('LoopContext');
    expect(all).not.toContain('StepInput');
    expect(all).not.toContain('RunSteps');
  });

  it('docs/entries.md counts the names each entry exports now', () => {
    const counts = Object.fromEntries(
      Object.entries(entries)
        .filter(([entry]) => entry !== 'cli')
        .map(([entry, { values, types }]) => [entry, values.length + types.length]),
    );
    expect(documentedCounts()).toEqual(counts);
  });
});
