import { type Command, Option } from 'commander';
import type { CheckpointStore } from '../persistence/CheckpointStore.js';
import { DEFAULT_RUNS_DB } from './commands/runs.js';
import { type LoadedLoops, loadLoops } from './loadLoops.js';
import { openRunStore } from './openRunStore.js';

/** The flags `loopchart serve` and `loopchart mcp` share. */
export interface RunApiFlags {
  db: string;
  schema?: string;
  loops?: string;
}

/** Adds `--db`, `--schema` and `--loops` to a command. */
export function runApiOptions(command: Command): Command {
  return command
    .addOption(
      new Option('--db <file|url>', 'a SQLite file, or a postgres:// URL').default(DEFAULT_RUNS_DB),
    )
    .option('--schema <name>', 'the Postgres schema of the tables (default public)')
    .option(
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
