import type { Command } from 'commander';
import type { CheckpointStore } from '../../stores/kit/CheckpointStore.js';
import { type LoadedLoops, loadLoops } from './loadLoops.js';
import { openRunStore, type RunStoreFlags, runStoreOptions } from './openRunStore.js';

/** The flags `loopchart serve` and `loopchart mcp` share. */
export interface RunApiFlags extends RunStoreFlags {
  loops?: string;
}

/** Adds `--db`, `--schema` and `--loops` to a command. */
export function runApiOptions(command: Command): Command {
  return runStoreOptions(command).option(
    '--loops <module>',
    'a JS module exporting the loops (and pipelines, agents) whose paused runs may be answered',
  );
}

/**
 * Imports the loops module (or exits with a usage error) and opens the store (writable when
 * `write`; a fault of the store is a `CliFault`).
 */
export async function runApiSetup(
  flags: RunApiFlags,
  write: boolean,
  usage: (message: string) => never,
): Promise<LoadedLoops & { store: CheckpointStore }> {
  const loaded = flags.loops
    ? await loadLoops(flags.loops)
    : { loops: {}, pipelines: {}, agents: {} };
  if (typeof loaded === 'string') usage(loaded);
  const store = await openRunStore(flags.db, { schema: flags.schema, write });
  return { ...loaded, store };
}
