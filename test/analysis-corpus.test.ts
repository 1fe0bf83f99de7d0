import {
  type ClassifiedCycle,
  classifyCycles,
  findUnboundedCycles,
  gatedBy,
  sendsOnly,
} from 'loopchart/analysis';
import { describe, expect, it } from 'vitest';
import { agentExamples } from './analysis-corpus/agentExamples.js';
import { appsAndTools } from './analysis-corpus/appsAndTools.js';
import type { CorpusEntry } from './analysis-corpus/CorpusEntry.js';
import { heldOutApps } from './analysis-corpus/heldOutApps.js';
import { otherApps } from './analysis-corpus/otherApps.js';
import { xstateApps } from './analysis-corpus/xstateApps.js';
import { xstateWorkflows } from './analysis-corpus/xstateWorkflows.js';
import { xstateWorkflowsRest } from './analysis-corpus/xstateWorkflowsRest.js';

// The termination check over machines written by others (test/analysis-corpus/, each citing its
// source), each cycle classified by hand before the check ran on its set: every automated cycle
// is found (never called bounded), few false alarms, few cycles it cannot decide.

// Collected first, then sets added after the checker was written (classified before it ran on
// them): the other xstate workflow examples, app machines from other projects, and (issue 30)
// LLM agents and tools.
const sets: Record<string, CorpusEntry[]> = {
  'first corpus': [...xstateWorkflows, ...xstateApps, ...otherApps],
  'held-out workflows': xstateWorkflowsRest,
  'held-out apps': heldOutApps,
  'held-out agents and tools': [...agentExamples, ...appsAndTools],
};
const corpus: CorpusEntry[] = Object.values(sets).flat();
const keyOf = (states: readonly string[]) => [...states].sort().join(' | ');

interface Row {
  machine: string;
  cycles: number;
  automated: number;
  unbounded: number;
  rightUnbounded: number;
  cantTell: number;
  /** Automated cycles (by hand) the check calls bounded: misses. */
  missed: number;
  /** Automated cycles (by hand) the check calls unbounded. */
  found: number;
}

const cyclesOf = new Map<CorpusEntry, ClassifiedCycle[]>(
  corpus.map((entry) => [entry, classifyCycles(entry.machine)]),
);

function rowOf(entry: CorpusEntry): Row {
  const cycles = cyclesOf.get(entry) ?? [];
  const automated = new Set(entry.automated.map(keyOf));
  const verdictsOf = (key: string) =>
    cycles.filter((cycle) => keyOf(cycle.states) === key).map((cycle) => cycle.verdict);
  const unbounded = cycles.filter((cycle) => cycle.verdict === 'unbounded');
  return {
    machine: entry.name,
    cycles: cycles.length,
    automated: automated.size,
    unbounded: unbounded.length,
    rightUnbounded: unbounded.filter((cycle) => automated.has(keyOf(cycle.states))).length,
    cantTell: cycles.filter((cycle) => cycle.verdict === 'cant_tell').length,
    missed: [...automated].filter((key) => {
      const verdicts = verdictsOf(key);
      return verdicts.length === 0 || verdicts.includes('bounded');
    }).length,
    found: [...automated].filter((key) => verdictsOf(key).includes('unbounded')).length,
  };
}

const sum = (pick: (row: Row) => number, of: Row[]) =>
  of.reduce((total, row) => total + pick(row), 0);

/** Recall (never called bounded), recall as unbounded, precision over unbounded, can't-tell share. */
function score(rows: Row[]) {
  const automated = sum((row) => row.automated, rows);
  const unbounded = sum((row) => row.unbounded, rows);
  const cycles = sum((row) => row.cycles, rows);
  return {
    cycles,
    automated,
    unbounded,
    recall: automated === 0 ? 1 : 1 - sum((row) => row.missed, rows) / automated,
    foundUnbounded: automated === 0 ? 1 : sum((row) => row.found, rows) / automated,
    precision: unbounded === 0 ? 1 : sum((row) => row.rightUnbounded, rows) / unbounded,
    cantTell: cycles === 0 ? 0 : sum((row) => row.cantTell, rows) / cycles,
    alarms: rows.filter((row) => row.unbounded > row.rightUnbounded).map((row) => row.machine),
  };
}

const rowsOf = Object.fromEntries(
  Object.entries(sets).map(([name, entries]) => [name, entries.map(rowOf)]),
);
const rows = Object.values(rowsOf).flat();
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

describe('the termination check on a corpus of real machines', () => {
  it('holds at least 30 machines, apps as well as workflows, each citing its source', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(30);
    expect(corpus.filter((entry) => entry.kind === 'app').length).toBeGreaterThanOrEqual(10);
    expect(corpus.filter((entry) => entry.kind === 'workflow').length).toBeGreaterThanOrEqual(5);
    for (const entry of corpus) expect(entry.source).toMatch(/^[\w.-]+\/[\w.-]+ \S+@[0-9a-f]{40}$/);
    expect(sets['held-out agents and tools']?.length).toBeGreaterThanOrEqual(40);
  });

  // cant_tell is ≤ 10% of the whole corpus's cycles; one set goes over (15.4%): the issue-30 set's
  // keyboard-driven car relays key presses through a helper the check cannot read, and its two
  // parallel regions make 10 of the set's 65 cycles (its three markers settle them all, see below). No
  // sound rule settles them from the code: the same machine's velocity observables wrap a helper
  // of the very same shape that emits every animation frame (fromFrames in the original), which
  // does spin on its own; only the helpers' names tell the two apart (analysis-verdict-patterns).
  // Both helpers sit in another module of the original; the same key input written with fromEvent
  // inside the actor is read as a person's (analysis-person-input). 15.4% is this set's sound floor.
  it('never calls an automated cycle bounded, keeps precision ≥ 0.95 in every set, and cant_tell ≤ 10% overall', () => {
    console.table(rows);
    for (const [name, of] of Object.entries(rowsOf)) {
      const set = score(of);
      console.log(
        `${name}: ${of.length} machines, ${set.cycles} cycles, ${set.automated} automated by hand, ` +
          `${set.unbounded} reported unbounded: recall ${set.recall.toFixed(2)} (as unbounded ${set.foundUnbounded.toFixed(2)}), ` +
          `precision ${set.precision.toFixed(2)}, cant_tell ${pct(set.cantTell)}, false alarms in ${JSON.stringify(set.alarms)}`,
      );
      expect(set.recall, name).toBe(1);
      expect(set.precision, name).toBeGreaterThanOrEqual(0.95);
      expect(set.cantTell, name).toBeLessThanOrEqual(
        name === 'held-out agents and tools' ? 0.16 : 0.1,
      );
    }
    const all = score(rows);
    console.log(
      `all: ${corpus.length} machines, ${all.cycles} cycles, recall ${all.recall.toFixed(2)}, ` +
        `precision ${all.precision.toFixed(2)}, cant_tell ${pct(all.cantTell)}`,
    );
    expect(all.automated).toBeGreaterThan(0);
    expect(all.cantTell).toBeLessThanOrEqual(0.1);
  });

  it('findUnboundedCycles reports exactly the unbounded verdicts', () => {
    for (const entry of corpus) {
      const unbounded = (cyclesOf.get(entry) ?? []).filter(
        (cycle) => cycle.verdict === 'unbounded',
      );
      expect(
        findUnboundedCycles(entry.machine).map((cycle) => keyOf(cycle.states)),
        entry.name,
      ).toEqual(unbounded.map((cycle) => keyOf(cycle.states)));
    }
  });

  it('reports nothing event-gated as unbounded: no reported cycle waits on an outside event', () => {
    for (const entry of corpus) {
      for (const cycle of findUnboundedCycles(entry.machine)) {
        expect(
          cycle.edges.some((edge) => edge.kind === 'event' && !cycle.actors),
          entry.name,
        ).toBe(false);
      }
    }
  });

  it('still shows the bounded cycles, with what bounds each', () => {
    const bounded = [...cyclesOf.values()].flat().filter((cycle) => cycle.verdict === 'bounded');
    expect(bounded.length).toBeGreaterThan(0);
    for (const cycle of bounded) expect(cycle.bound).toBeDefined();
  });
});

describe('the markers the check asks for', () => {
  it('settle every cycle it cannot decide once added to the machine', () => {
    let undecided = 0;
    for (const entry of corpus) {
      const cantTell = (cyclesOf.get(entry) ?? []).filter((cycle) => cycle.verdict === 'cant_tell');
      if (cantTell.length === 0) continue;
      const logics = (entry.machine.implementations.actors ?? {}) as Record<string, object>;
      const actors: Record<string, object> = {};
      for (const hint of cantTell.flatMap((cycle) => cycle.settle ?? [])) {
        expect(hint.actor, `${entry.name}: a marker this test cannot add`).toBeDefined();
        expect(['gatedBy', 'sendsOnly'], `${entry.name}: a marker this test cannot add`).toContain(
          hint.marker,
        );
        const logic = actors[hint.actor as string] ?? logics[hint.actor as string];
        expect(logic, `${entry.name}: actor ${hint.actor}`).toBeDefined();
        actors[hint.actor as string] =
          hint.marker === 'gatedBy'
            ? gatedBy('user', logic as object)
            : sendsOnly(hint.types ?? [], logic as object);
      }
      const marked = classifyCycles(entry.machine.provide({ actors } as never));
      for (const cycle of cantTell) {
        const after = marked.filter((one) => keyOf(one.states) === keyOf(cycle.states));
        expect(
          after.map((one) => one.verdict),
          entry.name,
        ).not.toContain('cant_tell');
        undecided++;
      }
    }
    expect(undecided).toBeGreaterThan(0);
  });
});
