import type { LoopConfig } from '../vocabulary/config.js';
import { compileLoop } from './compileLoop.js';
import type { LoopMachine } from './loopMachine.js';

/**
 * The loop machine of `config`. Kept for callers of the old API: compile the config once with
 * `compileLoop` and reuse the plan (`plan.chart`) instead; this builds a machine on every call.
 * @deprecated use `compileLoop(config).chart`
 * @example const machine = loopMachineFor(config);
 */
export function loopMachineFor<I, C>(config: LoopConfig<I, C>): LoopMachine<I, C> {
  return compileLoop(config).chart;
}
