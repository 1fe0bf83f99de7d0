import type { ActionEffects } from './actionEffects.js';
import type { Level } from './cycleGraph.js';
import type { Assumption } from './eventCauses.js';
import { visibleGuardParts } from './visibleGuardParts.js';

/**
 * What an automated transition's guard waits on: context keys that the machine's own moves only
 * reset (to values that leave the guard false) and that only events from outside (or from actors)
 * fill. On a cycle that resets every one of `keys` on each lap, the transition is gated by them.
 */
export interface ResetGate {
  keys: string[];
  /** 2: outside events fill them (`gates`); 1: an actor that may relay a person does (`actors`). */
  level: 1 | 2;
  gates: string[];
  actors: string[];
  /** Level 1: what would make the fillers wait. */
  assumptions: Assumption[];
}

/** One action list that may write context, and how the moment it runs is set off. */
export interface ContextWrite {
  effects: ActionEffects;
  /** The most automated way it can run: 0 for entry/exit actions and automated transitions. */
  level: Level;
  event: string;
  actors: readonly string[];
  assumptions: readonly Assumption[];
}

interface Writers {
  /** Per key, every value the machine's own moves (level 0) assign it. */
  own: Map<string, unknown[]>;
  /** A level-0 write whose keys cannot be read (a function-form `assign`, `enqueueActions`). */
  ownAny: boolean;
  outside: Map<string, ContextWrite[]>;
  outsideAny: ContextWrite[];
}

/**
 * The reset gate of each guard, if it has one (see `ResetGate`). Only plain guards whose reads can
 * be seen (`visibleGuardParts`) qualify; each part is run once, on the reset values. `writes` is
 * read the first time a guard reads any context.
 * @example const gateOf = resetGates(() => writes, guards); gateOf('bothIn') // { keys, level: 2, gates }
 */
export function resetGates(
  writes: () => Iterable<ContextWrite>,
  guards: Readonly<Record<string, unknown>>,
): (guard: unknown) => ResetGate | undefined {
  let writers: Writers | undefined;
  return (guard) => {
    let best: ResetGate | undefined;
    for (const part of visibleGuardParts(guard, guards)) {
      if (part.keys.length === 0) continue;
      writers ??= tabulate(writes());
      const gate = gateOf(part.keys, part.holds, writers);
      if (gate && (!best || gate.level > best.level)) best = gate;
    }
    return best;
  };
}

function gateOf(
  keys: readonly string[],
  holds: (context: Record<string, unknown>) => boolean,
  writers: Writers,
): ResetGate | undefined {
  if (writers.ownAny) return undefined;
  const context: Record<string, unknown> = {};
  const from = [...writers.outsideAny];
  for (const key of keys) {
    const values = writers.own.get(key) ?? [];
    const [first] = values;
    if (values.length === 0 || !values.every((value) => same(value, first))) return undefined;
    try {
      context[key] = structuredClone(first);
    } catch {
      return undefined;
    }
    from.push(...(writers.outside.get(key) ?? []));
  }
  if (from.length === 0 || holds(context)) return undefined;
  const level = from.some((write) => write.level === 1) ? 1 : 2;
  return {
    keys: [...keys],
    level,
    gates: unique(from.filter((write) => write.level === 2).map((write) => write.event)),
    actors: unique(from.filter((write) => write.level === 1).flatMap((write) => write.actors)),
    assumptions: from.filter((write) => write.level === 1).flatMap((write) => write.assumptions),
  };
}

function tabulate(writes: Iterable<ContextWrite>): Writers {
  const writers: Writers = { own: new Map(), ownAny: false, outside: new Map(), outsideAny: [] };
  for (const write of writes) {
    const { writes: keys, assigned } = write.effects;
    if (keys.size === 0) continue;
    if (write.level === 0) {
      writers.ownAny ||= keys.has('*');
      for (const [key, values] of assigned)
        writers.own.set(key, [...(writers.own.get(key) ?? []), ...values]);
      continue;
    }
    if (keys.has('*')) writers.outsideAny.push(write);
    for (const key of keys)
      if (key !== '*') writers.outside.set(key, [...(writers.outside.get(key) ?? []), write]);
  }
  return writers;
}

// Two assigned values are the same reset when equal as values (functions never are: they compute).
function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'function' || typeof b === 'function') return false;
  if (Object.is(a, b)) return true;
  try {
    return typeof a === 'object' && JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}

const unique = (values: string[]) => [...new Set(values)];
