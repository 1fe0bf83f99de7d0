import { analyzeCycles, findUnboundedCycles } from 'loopchart/analysis';
import { describe, expect, it } from 'vitest';
import type { CorpusEntry } from './analysis-corpus/CorpusEntry.js';
import { otherApps } from './analysis-corpus/otherApps.js';
import { xstateApps } from './analysis-corpus/xstateApps.js';
import { xstateWorkflows } from './analysis-corpus/xstateWorkflows.js';
import { xstateWorkflowsRest } from './analysis-corpus/xstateWorkflowsRest.js';

// The termination check over machines written by others (test/analysis-corpus/, each citing its
// source): every hand-classified automated cycle found, few false alarms, nothing gated reported.

const corpus: CorpusEntry[] = [...xstateWorkflows, ...xstateApps, ...otherApps];
const keyOf = (states: readonly string[]) => [...states].sort().join(' | ');

interface Row {
  machine: string;
  kind: CorpusEntry['kind'];
  expected: number;
  reported: number;
  truePositives: number;
  actorDriven: number;
  gated: number;
}

function rowOf(entry: CorpusEntry): Row {
  const report = analyzeCycles(entry.machine);
  const expected = new Set(entry.automated.map(keyOf));
  const reported = report.unbounded.map((cycle) => keyOf(cycle.states));
  return {
    machine: entry.name,
    kind: entry.kind,
    expected: expected.size,
    reported: reported.length,
    truePositives: reported.filter((key) => expected.has(key)).length,
    actorDriven: report.actorDriven.length,
    gated: report.gated.length,
  };
}

const rows = corpus.map(rowOf);
const sum = (pick: (row: Row) => number, of: Row[] = rows) =>
  of.reduce((total, row) => total + pick(row), 0);

describe('the termination check on a corpus of real machines', () => {
  it('holds at least 30 machines, apps as well as workflows, each citing its source', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(30);
    expect(corpus.filter((entry) => entry.kind === 'app').length).toBeGreaterThanOrEqual(10);
    expect(corpus.filter((entry) => entry.kind === 'workflow').length).toBeGreaterThanOrEqual(5);
    for (const entry of corpus) expect(entry.source).toMatch(/^[\w.-]+\/[\w.-]+ \S+@[0-9a-f]{40}$/);
  });

  it('finds every automated unbounded cycle (recall 1.0) with precision ≥ 0.9', () => {
    const truePositives = sum((row) => row.truePositives);
    const expected = sum((row) => row.expected);
    const reported = sum((row) => row.reported);
    const recall = truePositives / expected;
    const precision = reported === 0 ? 1 : truePositives / reported;
    console.table(rows);
    console.log(
      `corpus: ${corpus.length} machines, ${expected} automated cycles by hand, ${reported} reported, ` +
        `${truePositives} found: precision ${precision.toFixed(2)}, recall ${recall.toFixed(2)}`,
    );
    expect(expected).toBeGreaterThan(0);
    expect(recall).toBe(1);
    expect(precision).toBeGreaterThanOrEqual(0.9);
  });

  it('reports nothing event-gated by default: no reported cycle waits on an outside event', () => {
    for (const entry of corpus) {
      for (const cycle of findUnboundedCycles(entry.machine)) {
        expect(
          cycle.edges.some((edge) => edge.kind === 'event' && !cycle.actors),
          entry.name,
        ).toBe(false);
      }
    }
  });

  it('still shows the gated cycles, apart, for the machines that have them', () => {
    expect(sum((row) => row.gated)).toBeGreaterThan(0);
  });
});

describe('the held-out set: the other workflow examples, added after the checker was written', () => {
  const held = xstateWorkflowsRest.map(rowOf);

  it('misses nothing there either, and shows what it reports', () => {
    const all = [...rows, ...held];
    const reported = sum((row) => row.reported, all);
    const found = sum((row) => row.truePositives, all);
    const alarms = held.filter((row) => row.reported > row.truePositives).map((row) => row.machine);
    console.log(
      `held out: ${held.length} machines, ${sum((row) => row.reported, held)} reported, false alarms in ${JSON.stringify(alarms)}; ` +
        `with the corpus: ${corpus.length + held.length} machines, precision ${(found / reported).toFixed(2)}, recall ${(found / sum((row) => row.expected, all)).toFixed(2)}`,
    );
    expect(sum((row) => row.truePositives, held)).toBe(sum((row) => row.expected, held));
    expect(held.length).toBe(17);
  });
});
