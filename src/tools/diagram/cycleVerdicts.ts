import type { ClassifiedCycle, CycleVerdict } from '../analysis/classifyCycles.js';

/** How each verdict is drawn: the mark on the edges of its cycles, the class of their states. */
export const VERDICT_STYLES = {
  unbounded: {
    mark: '∞',
    className: 'unboundedCycle',
    style: 'fill:#fde8e7,stroke:#c62828,stroke-width:3px',
    words: 'unbounded (∞ on their hops, red states)',
  },
  cant_tell: {
    mark: '?',
    className: 'undecidedCycle',
    style: 'fill:#fff4d6,stroke:#b26a00,stroke-width:2px',
    words: 'undecided (? on their hops, amber states; add the marker named below)',
  },
  bounded: {
    mark: '',
    className: 'boundedCycle',
    style: 'stroke:#2e7d32,stroke-width:2px',
    words: 'bounded (green states)',
  },
} as const satisfies Record<
  CycleVerdict,
  { mark: string; className: string; style: string; words: string }
>;

const RANK: Record<CycleVerdict, number> = { unbounded: 0, cant_tell: 1, bounded: 2 };

/** What a diagram shows of a machine's cycles: the worst verdict per edge and per state, and a legend. */
export interface CycleVerdictMarks {
  /** Edge id → the worst verdict among the cycles it is a hop of. */
  edges: Map<string, CycleVerdict>;
  /** State id → the worst verdict among the cycles through it (a leaf and its ancestors). */
  states: Map<string, CycleVerdict>;
  /** Comment lines: the legend, then each unbounded or undecided cycle with why (and its marker). */
  legend: string[];
}

/**
 * Reads the verdicts of the machine's own cycles (a child machine's, with `within`, are drawn in
 * its own diagram) into marks for a drawing: the worst verdict wins where cycles share an edge or
 * a state, so an unbounded hop is never drawn as bounded.
 * @example cycleVerdictMarks(classifyCycles(machine)).edges.get('m.a:always:0') // 'unbounded'
 */
export function cycleVerdictMarks(cycles: readonly ClassifiedCycle[]): CycleVerdictMarks {
  const own = cycles.filter((cycle) => !cycle.within?.length);
  const edges = new Map<string, CycleVerdict>();
  const states = new Map<string, CycleVerdict>();
  const worst = (map: Map<string, CycleVerdict>, key: string, verdict: CycleVerdict) => {
    const known = map.get(key);
    if (known === undefined || RANK[verdict] < RANK[known]) map.set(key, verdict);
  };
  for (const cycle of own) {
    for (const edge of cycle.edges) worst(edges, edge.id, cycle.verdict);
    for (const state of cycle.states) worst(states, state, cycle.verdict);
  }
  const count = (verdict: CycleVerdict) => own.filter((cycle) => cycle.verdict === verdict).length;
  const legend =
    own.length === 0
      ? []
      : [
          `cycles (loopchart's termination check): ${count('unbounded')} ${VERDICT_STYLES.unbounded.words}, ${count('cant_tell')} ${VERDICT_STYLES.cant_tell.words}, ${count('bounded')} ${VERDICT_STYLES.bounded.words}.`,
          ...own
            .filter((cycle) => cycle.verdict !== 'bounded')
            .map((cycle) => {
              const path = [...cycle.states, cycle.states[0]].join(' → ');
              const marker = cycle.marker ? ` Marker: ${cycle.marker}` : '';
              return `${VERDICT_STYLES[cycle.verdict].mark} ${path}: ${cycle.reason}.${marker}`;
            }),
        ];
  return { edges, states, legend };
}
