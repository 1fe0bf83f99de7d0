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
  /** Paths whose test found them unrealisable with your steps, and why: they cover nothing. */
  unrealisable: Array<{ path: string; reason: string }>;
  /** The transitions only skipped or unrealisable paths take: what your steps never exercise. */
  unrealisableTransitions: GraphEdge[];
  /** Paths whose test failed: they cover nothing. */
  failed: string[];
}

/** What coverage reads of a path. */
export interface CoveredPath {
  readonly transitions: readonly string[];
  readonly status: string;
  readonly description?: string;
  readonly skipped?: string | undefined;
  /** The verdict of the path's test, once it ran: only a passed (or untested) path covers. */
  readonly verdict?: { readonly verdict: string; readonly reason?: string } | undefined;
}

/**
 * Measures which transitions of a machine (as `machineGraph` lists them) a set of paths takes,
 * and which final states none reaches. Only paths that passed their test (or were not tested
 * yet) count; skipped, unrealisable and failed ones are listed apart, with the transitions that
 * only skipped or unrealisable paths take.
 * @example const coverage = transitionCoverage(machine, paths);
 *          expect(coverage.uncovered).toEqual([]);
 */
export function transitionCoverage(
  machine: unknown,
  allPaths: ReadonlyArray<CoveredPath>,
): TransitionCoverage {
  const graph = machineGraph(machine as AnyStateMachine);
  const counts = (path: CoveredPath) =>
    path.skipped === undefined && (path.verdict === undefined || path.verdict.verdict === 'passed');
  const paths = allPaths.filter(counts);
  const named = (path: CoveredPath, reason: string) => ({ path: path.description ?? '', reason });
  const skipped = allPaths.flatMap((path) =>
    path.skipped === undefined ? [] : [named(path, path.skipped)],
  );
  const unrealisable = allPaths.flatMap((path) =>
    path.skipped === undefined && path.verdict?.verdict === 'unrealisable'
      ? [named(path, path.verdict.reason ?? '')]
      : [],
  );
  const failed = allPaths
    .filter((path) => path.verdict?.verdict === 'failed')
    .map((path) => path.description ?? '');
  const taken = new Set(paths.flatMap((path) => path.transitions));
  const wanted = new Set(
    allPaths
      .filter((path) => path.skipped !== undefined || path.verdict?.verdict === 'unrealisable')
      .flatMap((path) => path.transitions),
  );
  const byTransition = new Map<string, GraphEdge[]>();
  for (const edge of graph.edges) {
    const id = transitionId(edge.source, edge.event, edge.order);
    byTransition.set(id, [...(byTransition.get(id) ?? []), edge]);
  }
  const missed = [...byTransition.keys()].filter((id) => !taken.has(id));
  const uncovered = missed.flatMap((id) => byTransition.get(id) ?? []);
  const covered = byTransition.size - missed.length;
  const unrealisableTransitions = missed
    .filter((id) => wanted.has(id))
    .flatMap((id) => byTransition.get(id) ?? []);
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
    unrealisable,
    unrealisableTransitions,
    failed,
  };
}
