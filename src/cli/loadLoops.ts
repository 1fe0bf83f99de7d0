import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AnyLoopConfig, PipelinePlan } from '../pipeline/pipelinePlan.js';

/** The loops and pipelines a user module registers, keyed by id. */
export interface LoadedLoops {
  loops: Record<string, AnyLoopConfig>;
  pipelines: Record<string, PipelinePlan>;
}

/**
 * Imports a user module for `loopchart serve`/`mcp --loops`: it exports `loops` and/or
 * `pipelines` (named, or on its default export), each an object keyed by id or an array keyed
 * here by each one's `id`. Returns the reason instead when the module does not fit.
 * @example const loaded = await loadLoops('./loops.js'); // export const loops = [invoiceLoop];
 */
export async function loadLoops(file: string): Promise<LoadedLoops | string> {
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(resolve(file)).href)) as Record<string, unknown>;
  } catch (error) {
    return `--loops ${file} could not be imported: ${error instanceof Error ? error.message : String(error)}`;
  }
  const source = (
    module.loops === undefined && module.pipelines === undefined ? module.default : module
  ) as Record<string, unknown> | undefined;
  const loops = byId(source?.loops, 'loop');
  const pipelines = byId(source?.pipelines, 'pipeline');
  if (!loops || !pipelines || (source?.loops === undefined && source?.pipelines === undefined)) {
    return `--loops ${file} must export loops (an array of loop configs, or an object keyed by id) and/or pipelines`;
  }
  return { loops, pipelines } as LoadedLoops;
}

function byId(value: unknown, fallback: string): Record<string, unknown> | undefined {
  if (value === undefined) return {};
  if (Array.isArray(value)) {
    return Object.fromEntries(
      value.map((item) => [String((item as { id?: unknown } | null)?.id ?? fallback), item]),
    );
  }
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)
    : undefined;
}
