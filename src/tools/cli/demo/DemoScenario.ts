import { setTimeout as sleep } from 'node:timers/promises';
import type { LoopConfig } from '../../../core/vocabulary/config.js';
import type { LoopStatus } from '../../../core/vocabulary/statuses.js';

/** One bundled example loop the demo runs: a config with scripted, deterministic steps. */
export interface DemoScenario {
  /** A short id: the run id's prefix and the report's file name. */
  name: string;
  title: string;
  /** One sentence: what this run shows. */
  shows: string;
  /** How the run must end; the demo fails if it ends otherwise. */
  expected: LoopStatus;
  config: LoopConfig<unknown, unknown>;
  input: unknown;
}

/** Keeps a scenario's config and input typed together, then stores them type-erased. */
export function defineScenario<I, C>(scenario: {
  name: string;
  title: string;
  shows: string;
  expected: LoopStatus;
  config: LoopConfig<I, C>;
  input: I;
}): DemoScenario {
  return scenario as unknown as DemoScenario;
}

/** Pretends a step took `ms` (a model call, a records lookup); stops early if the loop aborts. */
export function latency(ms: number, signal: AbortSignal): Promise<void> {
  return sleep(ms, undefined, { signal });
}
