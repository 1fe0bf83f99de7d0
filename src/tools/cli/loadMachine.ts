import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AnyStateMachine } from 'xstate';

const isMachine = (value: unknown): value is AnyStateMachine =>
  typeof value === 'object' && value !== null && 'root' in value && 'idMap' in value;

/**
 * Imports the XState machine `spec` names for `loopchart diagram --machine`: `file#name` takes
 * that export, a bare `file` its default export or else its only exported machine. Returns the
 * reason instead when the module or the export does not fit.
 * @example const machine = await loadMachine('./dist/agent.js#agentMachine');
 */
export async function loadMachine(spec: string): Promise<AnyStateMachine | string> {
  const hash = spec.lastIndexOf('#');
  const file = hash > 0 ? spec.slice(0, hash) : spec;
  const name = hash > 0 ? spec.slice(hash + 1) : undefined;
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(resolve(file)).href)) as Record<string, unknown>;
  } catch (error) {
    return `--machine ${spec} could not be imported: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (name !== undefined) {
    return isMachine(module[name])
      ? module[name]
      : `--machine ${spec}: ${file} exports no XState machine named ${name}`;
  }
  if (isMachine(module.default)) return module.default;
  const machines = Object.entries(module).filter(([, value]) => isMachine(value));
  if (machines.length === 1) return machines[0]?.[1] as AnyStateMachine;
  return machines.length === 0
    ? `--machine ${spec}: ${file} exports no XState machine`
    : `--machine ${spec}: ${file} exports ${machines.length} machines (${machines.map(([key]) => key).join(', ')}); name one as ${file}#<name>`;
}
