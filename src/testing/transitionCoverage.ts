import type { AnyStateMachine } from 'xstate';
import { type GraphEdge, machineGraph, transitionId } from '../analysis/machineGraph.js';

/** How much of a machine a set of paths exercises. */
export interface TransitionCoverage {
  /** Transitions (each guarded branch its own) taken by at least one path. */
  covered: number;
  total: number;
  /** `covered / total`, from 0 to 1. */
  ratio: number;
  /** The edges of the transitions no path takes. */
  uncovered: GraphEdge[];
  /** Top-level final states no path ends in. */
  unreachedFinals: string[];
  /** Paths left out for want of a sample (`path.skipped`): they cover nothing. */
  skipped: Array<{ path: string; reason: string }>;
}

/** What coverage reads of a path. */
export interface CoveredPath {
  readonly transitions: readonly string[];
  readonly status: string;
  readonly description?: string;
  readonly skipped?: string | undefined;
}

/**
 * Measures which transitions of a machine (as `machineGraph` lists them) a set of paths takes,
 * and which final states none reaches; paths skipped for want of a sample count for nothing and are listed.
 * @example const coverage = transitionCoverage(machine, paths);
 *          expect(coverage.uncovered).toEqual([]);
 */
export function transitionCoverage(
  machine: unknown,
  allPaths: ReadonlyArray<CoveredPath>,
): TransitionCoverage {
  const graph = machineGraph(machine as AnyStateMachine);
  const paths = allPaths.filter((path) => path.skipped === undefined);
  const skipped = allPaths.flatMap(({ description, skipped: reason }) =>
    reason === undefined ? [] : [{ path: description ?? '', reason }],
  );
  const taken = new Set(paths.flatMap((path) => path.transitions));
  const byTransition = new Map<string, GraphEdge[]>();
  for (const edge of graph.edges) {
    const id = transitionId(edge.source, edge.event, edge.order);
    byTransition.set(id, [...(byTransition.get(id) ?? []), edge]);
  }
  const missed = [...byTransition.keys()].filter((id) => !taken.has(id));
  const uncovered = missed.flatMap((id) => byTransition.get(id) ?? []);
  const covered = byTransition.size - missed.length;
  const reached = new Set(paths.map((path) => path.status));
  const unreachedFinals = graph.nodes
    .filter((node) => node.type === 'final' && node.parent === graph.id && !reached.has(node.key))
    .map((node) => node.id);
  return {
    covered,
    total: byTransition.size,
    ratio: byTransition.size === 0 ? 1 : covered / byTransition.size,
    uncovered,
    unreachedFinals,
    skipped,
  };
}
