import type { AnyStateMachine } from 'xstate';
import { type FoundCycle, type Step, searchCycles } from './analyzeCycles.js';
import type { MarkerHint } from './eventCauses.js';
import type { CycleCheckOptions, UnboundedCycle } from './findUnboundedCycles.js';

/** What the termination check says of one cycle. */
export type CycleVerdict = 'unbounded' | 'bounded' | 'cant_tell';

/** What bounds a bounded cycle. */
export type CycleBound = 'budget' | 'gate' | 'human' | 'queue' | 'complementary';

/** One cycle of states with the check's verdict on it. */
export interface ClassifiedCycle extends UnboundedCycle {
  /**
   * `unbounded`: the machine can go round it forever on its own. `bounded`: something stops it
   * (`bound` says what). `cant_tell`: it turns on something the check cannot see through;
   * `marker` is the one line that settles it.
   */
  verdict: CycleVerdict;
  /** One sentence: why this verdict, naming the guard, event, actor or assumption it turns on. */
  reason: string;
  /** `cant_tell`: the marker that, once added where the reason says, decides the cycle. */
  marker?: string;
  /** `cant_tell`: the same markers as data (each actor or action to wrap). */
  settle?: MarkerHint[];
  /** `bounded`: what bounds it. */
  bound?: CycleBound;
}

/**
 * Every cycle of states of any XState v5 machine (and of the child machines it invokes or spawns),
 * each with a verdict: `unbounded`, `bounded` (by a budget guard, an outside event, a person, a
 * drained queue or contradicting guards) or `cant_tell` (with the marker that would decide it).
 * Unbounded cycles come first, then can't-tell, then bounded ones.
 * @example classifyCycles(machine).filter((cycle) => cycle.verdict !== 'bounded')
 *   // [{ states: ['agent.deciding', 'agent.acting'], verdict: 'unbounded', reason: '…' }]
 */
export function classifyCycles(
  machine: AnyStateMachine,
  options: CycleCheckOptions = {},
): ClassifiedCycle[] {
  const found = searchCycles(machine, options, [0, 1, 2, 3], true);
  const rank = { unbounded: 0, cant_tell: 1, bounded: 2 } as const;
  return found
    .map(classifyFound)
    .map((cycle, i) => ({ cycle, i }))
    .sort((a, b) => rank[a.cycle.verdict] - rank[b.cycle.verdict] || a.i - b.i)
    .map(({ cycle }) => cycle);
}

/** The verdict on one cycle the search found. */
export function classifyFound(found: FoundCycle): ClassifiedCycle {
  const { cycle, level, steps, feasible } = found;
  if (!feasible)
    return {
      ...cycle,
      verdict: 'bounded',
      bound: 'complementary',
      reason: `its always guards contradict each other (${contradiction(steps)}) and nothing on the way changes the context they read`,
    };
  if (level === 3) {
    const guards = unique(
      steps.filter((step) => step.level === 3).map((step) => step.hop.edge.guard ?? ''),
    );
    return {
      ...cycle,
      verdict: 'bounded',
      bound: 'budget',
      reason: `every lap passes the budget guard ${guards.map(quote).join(' or ')}`,
    };
  }
  if (level === 2) return gated(cycle, steps);
  if (level === 1) {
    const [deciding] = steps
      .filter((step) => step.level === 1 && step.assumptions.length > 0)
      .sort((a, b) => a.assumptions.length - b.assumptions.length);
    const assumptions = deciding?.assumptions ?? [];
    const texts = unique(assumptions.map((one) => one.text));
    const markers = unique(assumptions.map((one) => one.marker));
    return {
      ...cycle,
      verdict: 'cant_tell',
      reason: `it waits on each lap only if ${texts.join(', and ')} — the check cannot see that; add ${markers.join(' and ')} if it holds`,
      marker: markers.join('; '),
      settle: [...new Map(assumptions.map((one) => [JSON.stringify(one.hint), one.hint])).values()],
    };
  }
  return { ...cycle, verdict: 'unbounded', reason: unboundedReason(cycle, steps) };
}

/** A gated cycle: a person, an outside event, a `gatedBy` actor or a drained queue on some lap. */
function gated(cycle: UnboundedCycle, steps: readonly Step[]): ClassifiedCycle {
  const waits = steps.filter((step) => step.level === 2);
  const of = (gate: Step['gate']) => waits.filter((step) => step.gate === gate);
  const human = of('human');
  if (human.length > 0)
    return {
      ...cycle,
      verdict: 'bounded',
      bound: 'human',
      reason: `each lap waits for a person: ${describe(human, (step) => `${step.hop.edge.event} out of ${step.hop.edge.source}, tagged waitsForHuman`)}`,
    };
  const outside = waits.filter((step) => step.gate !== 'queue');
  if (outside.length > 0)
    return {
      ...cycle,
      verdict: 'bounded',
      bound: 'gate',
      reason: `each lap waits for ${describe(outside, (step) =>
        step.gate === 'actor'
          ? `${step.actors.map(quote).join(', ')} to finish, which waits on outside input (gatedBy, a terminal, or declared external)`
          : `the outside event ${step.gates.join(' or ')}`,
      )}`,
    };
  return {
    ...cycle,
    verdict: 'bounded',
    bound: 'queue',
    reason: `each lap replays one item of a queue it drains: ${describe(waits, (step) => step.gates.slice(1).join(', '))}`,
  };
}

function unboundedReason(cycle: UnboundedCycle, steps: readonly Step[]): string {
  const drivers = cycle.actors?.length ? `, driven by ${cycle.actors.map(quote).join(', ')}` : '';
  const guards = unique(
    steps.flatMap((step) => (step.hop.edge.guard ? [step.hop.edge.guard] : [])),
  );
  const hint =
    guards.length > 0
      ? `; if ${guards.map(quote).join(' or ')} caps it, mark that guard budgetGuard(…)`
      : '; guard a hop with a guard marked budgetGuard(…), or wait for a person on the way';
  return `the machine can go round it on its own${drivers}: no budget guard on the way and no lap waits for outside input${hint}`;
}

function contradiction(steps: readonly Step[]): string {
  const guards = unique(
    steps.flatMap((step) => (step.hop.edge.guard ? [step.hop.edge.guard] : [])),
  );
  return guards.join(' against ');
}

const describe = (steps: readonly Step[], each: (step: Step) => string) =>
  unique(steps.map(each)).join('; ');
const quote = (text: string) => `\`${text}\``;
const unique = (values: string[]) => [...new Set(values)];
