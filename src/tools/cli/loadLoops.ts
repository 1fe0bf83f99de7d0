import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AnyLoopConfig, PipelinePlan } from '../../runners/pipeline/pipelinePlan.js';
import type { Registered } from '../serve/answerRun.js';

/** The loops, pipelines and agents a user module registers, keyed by id. */
export interface LoadedLoops {
  loops: Record<string, AnyLoopConfig>;
  pipelines: Record<string, PipelinePlan>;
  agents: NonNullable<Registered['agents']>;
}

const EXPORTS = ['loops', 'pipelines', 'agents'] as const;

/**
 * Imports a user module for `loopchart serve`/`mcp --loops`: it exports `loops`, `pipelines`
 * and/or `agents` (named, or on its default export), each an object keyed by id or an array keyed
 * here by each one's `id` (an agent's `config.id`). Returns the reason instead when the module
 * does not fit.
 * @example const loaded = await loadLoops('./loops.js'); // export const loops = [invoiceLoop];
 */
export async function loadLoops(file: string): Promise<LoadedLoops | string> {
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(resolve(file)).href)) as Record<string, unknown>;
  } catch (error) {
    return `--loops ${file} could not be imported: ${error instanceof Error ? error.message : String(error)}`;
  }
  const source = (EXPORTS.every((name) => module[name] === undefined) ? module.default : module) as
    | Record<string, unknown>
    | undefined;
  const loops = byId(source?.loops, 'loop');
  const pipelines = byId(source?.pipelines, 'pipeline');
  const agents = byId(source?.agents, 'agent', true);
  if (!loops || !pipelines || !agents || EXPORTS.every((name) => source?.[name] === undefined)) {
    return `--loops ${file} must export loops (an array of loop configs, or an object keyed by id), pipelines and/or agents`;
  }
  return { loops, pipelines, agents } as LoadedLoops;
}

function byId(
  value: unknown,
  fallback: string,
  agent = false,
): Record<string, unknown> | undefined {
  if (value === undefined) return {};
  if (Array.isArray(value)) {
    const idOf = (item: unknown) =>
      (
        (agent ? (item as { config?: { id?: unknown } } | null)?.config : item) as {
          id?: unknown;
        } | null
      )?.id;
    return Object.fromEntries(value.map((item) => [String(idOf(item) ?? fallback), item]));
  }
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)
    : undefined;
}
