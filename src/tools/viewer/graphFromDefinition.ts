import { type AnyStateMachine, createMachine } from 'xstate';
import { budgetGuard, isBudgetGuard } from '../../core/decisions/budgetGuard.js';
import { ROUTE_GUARDS } from '../../core/decisions/routeGuards.js';
import type { MachineJson } from '../diagram/toMachineJson.js';
import { toMachineJson } from '../diagram/toMachineJson.js';

/**
 * loopchart's own budget guards by name: a definition keeps guard names, not the functions that
 * carry the budget mark, so a loop's caps are known again by their names.
 */
const LOOP_BUDGET_GUARDS = Object.fromEntries(
  Object.entries(ROUTE_GUARDS)
    .filter(([, guard]) => isBudgetGuard(guard))
    .map(([name]) => [name, budgetGuard(() => true)]),
);

/** What `@statelyai/inspect` writes (through safe-stable-stringify) past its depth limit. */
const CUT_OFF: Record<string, unknown> = { '[Object]': {}, '[Array]': [], '[Circular]': undefined };

/**
 * Rebuilds the machine graph from the `definition` an inspector sends (the machine's raw config as
 * JSON, `always` included): XState reads the config again, so `machineGraph` stays the only
 * extractor. Named guards and invoked actors keep their names; implementations are not needed.
 * Parts cut off by the inspector's `serializationDepthLimit` (default 10) become empty states and
 * transitions, so a deep machine is still drawn down to that depth.
 * @example graphFromDefinition(actorEvent.definition).edges.length
 */
export function graphFromDefinition(definition: string): MachineJson {
  return toMachineJson(machineFromDefinition(definition));
}

/**
 * The machine an inspector's `definition` describes, as `graphFromDefinition` reads it: guards
 * are names, loopchart's budget guards (`hasRetriesLeft`, …) known as such by theirs.
 * @example analyzeCycles(machineFromDefinition(actorEvent.definition))
 */
export function machineFromDefinition(definition: string): AnyStateMachine {
  const config: unknown = JSON.parse(definition, (_key, value: unknown) =>
    typeof value === 'string' && Object.hasOwn(CUT_OFF, value)
      ? structuredClone(CUT_OFF[value])
      : value,
  );
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new Error('the definition is not a machine config object');
  }
  return createMachine(config as Parameters<typeof createMachine>[0]).provide({
    guards: LOOP_BUDGET_GUARDS,
  });
}
