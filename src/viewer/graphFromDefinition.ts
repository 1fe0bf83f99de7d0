import { createMachine } from 'xstate';
import type { MachineJson } from '../diagram/toMachineJson.js';
import { toMachineJson } from '../diagram/toMachineJson.js';

/**
 * Rebuilds the machine graph from the `definition` an inspector sends (the machine's raw config as
 * JSON, `always` included): XState reads the config again, so `machineGraph` stays the only
 * extractor. Named guards and invoked actors keep their names; implementations are not needed.
 * @example graphFromDefinition(actorEvent.definition).edges.length
 */
export function graphFromDefinition(definition: string): MachineJson {
  const config: unknown = JSON.parse(definition);
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new Error('the definition is not a machine config object');
  }
  return toMachineJson(createMachine(config as Parameters<typeof createMachine>[0]));
}
