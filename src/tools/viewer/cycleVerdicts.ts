import type { AnyStateMachine } from 'xstate';
import { type ClassifiedCycle, classifyCycles } from '../analysis/classifyCycles.js';
import type { ChartLayout } from './ChartLayout.js';

/**
 * What the termination check (`classifyCycles`) says of the loops an edge is a hop of, as the
 * chart draws it: `unbounded` (the machine can go round on its own forever), `cant_tell` (it turns
 * on something the check cannot see through), or bounded: `capped` by a budget guard, `gated` on
 * an event from outside or a person each lap, or `bounded` otherwise (a drained queue,
 * contradicting guards).
 */
export type CycleVerdict = 'unbounded' | 'cant_tell' | 'gated' | 'bounded' | 'capped';

/** Worst first: an edge on several loops shows the worst verdict among them. */
const SEVERITY: readonly CycleVerdict[] = ['unbounded', 'cant_tell', 'gated', 'bounded', 'capped'];

/**
 * The checker's verdict per edge (edge id → the worst verdict among the machine's own loops it is
 * a hop of). The one place the viewer asks the termination check, so the chart says what
 * `classifyCycles` and `assertBoundedLoops` say.
 * @example cycleVerdicts(machine).get('light.red:xstate.after.2000.light.red:0') // 'unbounded'
 */
export function cycleVerdicts(machine: AnyStateMachine): Map<string, CycleVerdict> {
  const verdicts = new Map<string, CycleVerdict>();
  for (const cycle of classifyCycles(machine, { limit: 50 })) {
    if (cycle.within?.length) continue; // a child machine's loop: not an edge of this chart
    const verdict = drawnAs(cycle);
    for (const edge of cycle.edges) {
      const before = verdicts.get(edge.id);
      if (!before || SEVERITY.indexOf(verdict) < SEVERITY.indexOf(before)) {
        verdicts.set(edge.id, verdict);
      }
    }
  }
  return verdicts;
}

function drawnAs(cycle: ClassifiedCycle): CycleVerdict {
  if (cycle.verdict !== 'bounded') return cycle.verdict;
  if (cycle.bound === 'budget') return 'capped';
  return cycle.bound === 'gate' || cycle.bound === 'human' ? 'gated' : 'bounded';
}

/**
 * The layout with each edge on a loop marked with the check's verdict; a machine the check cannot
 * read leaves the layout unmarked.
 * @example const marked = withCycleVerdicts(layout, () => cycleVerdicts(machine));
 */
export function withCycleVerdicts(
  layout: ChartLayout,
  verdicts: () => ReadonlyMap<string, CycleVerdict>,
): ChartLayout {
  let found: ReadonlyMap<string, CycleVerdict>;
  try {
    found = verdicts();
  } catch {
    return layout;
  }
  return {
    ...layout,
    edges: layout.edges.map((edge) => {
      const cycle = found.get(edge.id);
      return cycle ? { ...edge, cycle } : edge;
    }),
  };
}
