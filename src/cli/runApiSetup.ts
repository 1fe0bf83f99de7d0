import type { Command } from 'commander';
import type { CheckpointStore } from '../persistence/CheckpointStore.js';
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
    'a JS module exporting the loops (and pipelines) whose paused runs may be answered',
  );
}

/** Opens the store (writable when `write`) and imports the loops module, or exits with a usage error. */
export async function runApiSetup(
  flags: RunApiFlags,
  write: boolean,
  usage: (message: string) => never,
): Promise<LoadedLoops & { store: CheckpointStore }> {
  const loaded = flags.loops ? await loadLoops(flags.loops) : { loops: {}, pipelines: {} };
  if (typeof loaded === 'string') usage(loaded);
  const store = await openRunStore(flags.db, { schema: flags.schema, write });
  if (typeof store === 'string') usage(store);
  return { ...loaded, store };
}
