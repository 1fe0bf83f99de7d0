import type { LoopConfig } from '../config.js';
import { createLoopMachine, type LoopMachine } from './loopMachine.js';

interface Cached {
  keys: string[];
  values: unknown[];
  machine: LoopMachine<never, never>;
}

// Building a machine costs about a millisecond (XState formats every transition), so this reuses
// the machine of a config object it has seen, as long as the config was not changed since.
const cache = new WeakMap<object, Cached>();

/**
 * The loop machine of `config`, built once per config object and rebuilt if the object changed.
 * @example for (const input of inputs) await runLoopMachine(loopMachineFor(config), input);
 */
export function loopMachineFor<I, C>(config: LoopConfig<I, C>): LoopMachine<I, C> {
  const keys = Object.keys(config);
  const values = keys.map((key) =>
    signatureOf((config as unknown as Record<string, unknown>)[key]),
  );
  const hit = cache.get(config);
  if (hit && sameEntries(hit, keys, values)) return hit.machine as unknown as LoopMachine<I, C>;
  const machine = createLoopMachine(config);
  cache.set(config, { keys, values, machine: machine as unknown as LoopMachine<never, never> });
  return machine;
}

function signatureOf(value: unknown): unknown {
  if (typeof value === 'function' || value === null || typeof value !== 'object') return value;
  try {
    return JSON.stringify(value);
  } catch {
    return {};
  }
}

function sameEntries(hit: Cached, keys: string[], values: unknown[]): boolean {
  return (
    hit.keys.length === keys.length &&
    keys.every((key, i) => hit.keys[i] === key && Object.is(hit.values[i], values[i]))
  );
}
