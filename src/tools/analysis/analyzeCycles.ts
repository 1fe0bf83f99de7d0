import type { AnyStateMachine } from 'xstate';
import { type CycleGraph, cycleGraph, type Hop, type Level } from './cycleGraph.js';
import { negate } from './describeGuard.js';
import { elementaryCycles } from './elementaryCycles.js';
import type { Assumption, Cause } from './eventCauses.js';
import type { CycleCheckOptions, UnboundedCycle } from './findUnboundedCycles.js';

/** Every cycle of a machine's states that no budget guard bounds, sorted by what sets it going. */
export interface CycleReport {
  /** Cycles the machine goes round on its own: `always`, timers, invokes, events it sends itself. */
  unbounded: UnboundedCycle[];
  /**
   * Cycles that also need events an invoked or spawned callback, observable or machine may send:
   * a ticker spins, a relay waits for a person. `actors` names them; declare them with `options.actors`.
   */
  actorDriven: UnboundedCycle[];
  /** Cycles that need an event from outside on some lap (`gates` names them): bounded by a person. */
  gated: UnboundedCycle[];
}

const HUMAN_WAITS = ['tagged-or-external', 'tagged'];
const ACTOR_MODES = ['external', 'automated'];

/**
 * Sorts every unbudgeted cycle of any XState v5 machine into unbounded, actor-driven and gated,
 * and checks invoked or spawned child machines in turn (their cycles carry `within`).
 * @example const { unbounded, gated } = analyzeCycles(machine);
 *          gated.map((cycle) => cycle.gates); // [['RETRY']]: a person presses retry each lap
 */
export function analyzeCycles(
  machine: AnyStateMachine,
  options: CycleCheckOptions = {},
): CycleReport {
  return collectCycles(machine, options, [0, 1, 2]);
}

/** A cycle found at one level, with how it leaves each leaf and whether its guards allow it. */
export interface FoundCycle {
  cycle: UnboundedCycle;
  level: Level;
  steps: Step[];
  /** False when its `always` guards contradict each other and nothing on the way changes context. */
  feasible: boolean;
}

/** `analyzeCycles`, searching only the lists of `levels` (`[0]`: the unbounded ones). */
export function collectCycles(
  machine: AnyStateMachine,
  options: CycleCheckOptions,
  levels: readonly Exclude<Level, 3>[],
): CycleReport {
  const report: CycleReport = { unbounded: [], actorDriven: [], gated: [] };
  const lists = [report.unbounded, report.actorDriven, report.gated] as const;
  for (const found of searchCycles(machine, options, levels, false))
    lists[found.level as 0 | 1 | 2].push(found.cycle);
  return report;
}

/**
 * Every cycle of the machine and of the child machines it invokes or spawns whose least-automated
 * hop is at one of `levels` (at most `limit` per level and machine); infeasible ones only when
 * `infeasible` is set.
 */
export function searchCycles(
  machine: AnyStateMachine,
  options: CycleCheckOptions,
  levels: readonly Level[],
  infeasible: boolean,
): FoundCycle[] {
  checkOptions(options);
  const out: FoundCycle[] = [];
  const limit = options.limit ?? 100;
  const seen = new Set<AnyStateMachine>();
  const analyze = (at: AnyStateMachine, within: string[]) => {
    seen.add(at);
    const graph = cycleGraph(at, options);
    for (const level of levels) out.push(...search(graph, level, limit, within, infeasible));
    for (const child of graph.children) {
      if (!seen.has(child.machine)) analyze(child.machine, [...within, child.label]);
    }
  };
  analyze(machine, []);
  return out;
}

/** The cycles whose least-automated hop is at `level` (each hop taken the most automated way). */
function search(
  graph: CycleGraph,
  level: Level,
  limit: number,
  within: string[],
  infeasible: boolean,
): FoundCycle[] {
  const { n, hops, leaves } = graph;
  const successors: number[][] = Array.from({ length: n }, () => []);
  for (const [key, list] of hops) {
    if ((list[0] as Hop).level <= level) successors[Math.floor(key / n)]?.push(key % n);
  }
  const along = (cycle: readonly number[]) =>
    cycle.map((v, i) =>
      (hops.get(v * n + (cycle[(i + 1) % cycle.length] as number)) ?? []).filter(
        (hop) => hop.level <= level,
      ),
    );
  const accept = (cycle: readonly number[]) => {
    const ways = along(cycle);
    const most = stepsOf(graph, cycle, ways).reduce((top, step) => Math.max(top, step.level), 0);
    return most === level && (infeasible || feasible(graph, cycle, ways));
  };
  return elementaryCycles(n, successors, limit, accept).map((cycle) => {
    const ways = along(cycle);
    const steps = stepsOf(graph, cycle, ways);
    const found: UnboundedCycle = {
      states: cycle.map((v) => leaves.ids[v] ?? ''),
      edges: steps.map((step) => step.hop.edge),
    };
    if (within.length > 0) found.within = within;
    const actors = unique(steps.flatMap((step) => step.actors));
    if (actors.length > 0) found.actors = actors;
    if (level === 2)
      found.gates = unique(steps.filter((step) => step.level === 2).flatMap((step) => step.gates));
    return { cycle: found, level, steps, feasible: !infeasible || feasible(graph, cycle, ways) };
  });
}

/** How a cycle leaves each of its leaves: the hop taken, and what sets it off on this cycle. */
export interface Step {
  hop: Hop;
  level: Level;
  gates: string[];
  actors: string[];
  /** Level 1: what would make this hop wait, each with its marker. */
  assumptions: Assumption[];
  /** Level 2: what it waits for. */
  gate?: Cause['gate'];
}

/**
 * The most automated step out of each leaf of the cycle. A hop whose guard waits on context that
 * only outside events fill (`Hop.waitsOn`) is gated by those events when every lap resets that
 * context: each of its keys is assigned on every way of some step.
 */
function stepsOf(graph: CycleGraph, cycle: readonly number[], ways: Hop[][]): Step[] {
  const plain = (hop: Hop): Step => ({
    hop,
    level: hop.level,
    gates: hop.level === 2 ? hop.gates : [],
    actors: hop.actors,
    assumptions: hop.level === 1 ? hop.assumptions : [],
    ...(hop.level === 2 && hop.gate ? { gate: hop.gate } : {}),
  });
  if (!ways.some((way) => way.some((hop) => hop.waitsOn)))
    return ways.map((way) => plain(way[0] as Hop));
  const lap = new Set<string>();
  cycle.forEach((from, i) => {
    const to = cycle[(i + 1) % cycle.length] as number;
    const [first, ...rest] = (ways[i] ?? []).map((hop) => graph.writesAt(hop.edge, from, to));
    for (const key of first ?? []) if (rest.every((keys) => keys.has(key))) lap.add(key);
  });
  return ways.map((way) => {
    const steps = way.map((hop): Step => {
      const gate = hop.waitsOn;
      if (!gate || gate.level <= hop.level || !gate.keys.every((key) => lap.has(key)))
        return plain(hop);
      return {
        hop,
        level: gate.level,
        gates: gate.gates,
        actors: gate.actors,
        assumptions: gate.level === 1 ? gate.assumptions : [],
        ...(gate.level === 2 ? { gate: 'event' as const } : {}),
      };
    });
    return steps.reduce((best, step) => (step.level < best.level ? step : best));
  });
}

/**
 * False when the cycle's `always` guards contradict each other (`g` on one hop, `not(g)` on
 * another) and nothing on the way can change the context they read.
 */
function feasible(graph: CycleGraph, cycle: readonly number[], ways: Hop[][]): boolean {
  if (cycle.some((leaf) => graph.assigning.has(leaf))) return true;
  if (ways.some((way) => way.some((hop) => hop.assigns))) return true;
  const facts = new Set<string>();
  for (const way of ways) {
    if (!way.every((hop) => hop.edge.kind === 'always')) continue;
    const [first, ...rest] = way.map((hop) => hop.literals);
    for (const literal of first ?? [])
      if (rest.every((other) => other.includes(literal))) facts.add(literal);
  }
  return ![...facts].some((literal) => facts.has(negate(literal)));
}

const unique = (values: string[]) => [...new Set(values)];

function checkOptions(options: CycleCheckOptions): void {
  const { humanWait, limit, actors } = options;
  if (humanWait !== undefined && !HUMAN_WAITS.includes(humanWait)) {
    throw new TypeError(
      `humanWait must be 'tagged-or-external' or 'tagged', got ${JSON.stringify(humanWait)}`,
    );
  }
  if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) {
    throw new TypeError(`limit must be a positive integer, got ${String(limit)}`);
  }
  for (const [name, mode] of Object.entries(actors ?? {})) {
    if (!ACTOR_MODES.includes(mode)) {
      throw new TypeError(
        `actors.${name} must be 'external' or 'automated', got ${JSON.stringify(mode)}`,
      );
    }
  }
}
