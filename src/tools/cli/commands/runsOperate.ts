import type { Command } from 'commander';
import type { AnyLoopConfig } from '../../../core/vocabulary/AnyLoopConfig.js';
import type { LoopConfig } from '../../../core/vocabulary/config.js';
import type { RunResult } from '../../../runners/loop/PausedRun.js';
import { continueRun } from '../../../runners/operate/continueRun.js';
import type { RecoveryReport } from '../../../runners/operate/RecoveryReport.js';
import type { ReconcileAnswer } from '../../../runners/operate/reconcileAnswer.js';
import { reconcileRun } from '../../../runners/operate/reconcileRun.js';
import { recoverRuns } from '../../../runners/operate/recoverRuns.js';
import { isCheckpointError } from '../../../stores/kit/CheckpointError.js';
import type { CheckpointStore } from '../../../stores/kit/CheckpointStore.js';
import { cliOutput } from '../cliOutput.js';
import { integerFlag, numberFlag } from '../flags/integerFlag.js';
import { type LoadedLoops, loadLoops } from '../loadLoops.js';
import { openRunStore, type RunStoreFlags, runStoreOptions, storeFault } from '../openRunStore.js';

interface OperateFlags extends RunStoreFlags {
  loops: string;
  json?: boolean;
}

/**
 * `loopchart runs recover | reconcile | continue`: operating stored runs after the fact, with the
 * loops of a `--loops` module (the same module `serve` and `mcp` take).
 */
export function register(program: Command): void {
  const runs =
    program.commands.find((command) => command.name() === 'runs') ?? program.command('runs');
  operate(runs.command('recover'), 'resume every run whose writer died (its claim lapsed)')
    .option('--claim-owner <id>', "this process's writer identity: its own runs are taken at once")
    .option('--park', 'park a non-idempotent step in flight instead of ending it unknown_outcome')
    .option('--concurrency <n>', 'runs resumed at the same time, 1–1000', integerFlag(1, 1000))
    .action((flags: RecoverFlags, command: Command) =>
      using(command, flags, async (store, loaded) => {
        const report = await recoverRuns(store, loaded, {
          ...(flags.claimOwner === undefined ? {} : { claimOwner: flags.claimOwner }),
          ...(flags.concurrency === undefined ? {} : { concurrency: flags.concurrency }),
          inFlight: flags.park ? 'park' : 'end',
        });
        return flags.json ? JSON.stringify(report, null, 2) : recoveryLines(report);
      }),
    );
  operate(
    runs.command('reconcile').argument('<runId>', 'the parked run'),
    'settle a parked run: --happened <json result>, --did-not-happen or --give-up',
  )
    .option('--happened <json>', 'the step acted and returned this (JSON)')
    .option('--did-not-happen', 'the step did not act: run it once more')
    .option('--give-up', 'end the run unknown_outcome')
    .action((runId: string, flags: ReconcileFlags, command: Command) =>
      using(command, flags, async (store, loaded) => {
        const answer = answerOf(flags, command);
        const config = loopOf(loaded, store, runId, command);
        const result = await reconcileRun(await config, { store, runId, answer });
        return printed(result, flags);
      }),
    );
  operate(
    runs.command('continue').argument('<runId>', 'the capped run'),
    'continue a capped run as a new linked run with a top-up',
  )
    .option('--retries <n>', 'more refines (default 1)', integerFlag(1, 50))
    .option('--attempts <n>', 'more attempts (default: as many as --retries)', integerFlag(1, 100))
    .option('--cost <n>', 'more cost', numberFlag(0))
    .option('--new-run-id <id>', "the new run's id (default a random UUID)")
    .action((runId: string, flags: ContinueFlags, command: Command) =>
      using(command, flags, async (store, loaded) => {
        const config = await loopOf(loaded, store, runId, command);
        const { retries, attempts, cost } = flags;
        const topUp = {
          ...(retries === undefined ? {} : { retries }),
          ...(attempts === undefined ? {} : { attempts }),
          ...(cost === undefined ? {} : { cost }),
        };
        const newRunId = flags.newRunId ?? globalThis.crypto.randomUUID();
        const result = await continueRun(config, { store, runId, newRunId, topUp });
        return `${newRunId}: ${printed(result, flags)}`;
      }),
    );
}

interface RecoverFlags extends OperateFlags {
  claimOwner?: string;
  park?: boolean;
  concurrency?: number;
}
interface ReconcileFlags extends OperateFlags {
  happened?: string;
  didNotHappen?: boolean;
  giveUp?: boolean;
}
interface ContinueFlags extends OperateFlags {
  retries?: number;
  attempts?: number;
  cost?: number;
  newRunId?: string;
}

function operate(command: Command, description: string): Command {
  return runStoreOptions(command.description(description))
    .requiredOption('--loops <module>', 'a JS module exporting the loops (and pipelines) by id')
    .option('--json', 'print JSON');
}

async function using(
  command: Command,
  flags: OperateFlags,
  use: (store: CheckpointStore, loaded: LoadedLoops) => Promise<string>,
): Promise<void> {
  const loaded = await loadLoops(flags.loops);
  if (typeof loaded === 'string') fail(command, loaded, 2);
  const store = await openRunStore(flags.db, { schema: flags.schema, write: true });
  try {
    cliOutput(command).out(await use(store, loaded));
  } catch (error) {
    if (isCheckpointError(error)) fail(command, `runs: ${error.message} (${error.code})`);
    throw storeFault(error, flags.db) ?? error;
  } finally {
    await store.close?.();
  }
}

async function loopOf(
  loaded: LoadedLoops,
  store: CheckpointStore,
  runId: string,
  command: Command,
) {
  const record = await store.load(runId);
  if (!record) fail(command, `runs: no run '${runId.slice(0, 200)}'`);
  const { machineId } = record;
  if (!Object.hasOwn(loaded.loops, machineId)) {
    fail(command, `runs: run '${runId}' is of loop '${machineId}', which --loops does not export`);
  }
  return loaded.loops[machineId] as AnyLoopConfig as LoopConfig<unknown, unknown>;
}

function answerOf(flags: ReconcileFlags, command: Command): ReconcileAnswer {
  const given = [flags.happened !== undefined, flags.didNotHappen, flags.giveUp].filter(Boolean);
  if (given.length !== 1) {
    fail(command, 'runs reconcile: give one of --happened <json>, --did-not-happen, --give-up', 2);
  }
  if (flags.didNotHappen) return { type: 'outcome.did_not_happen' };
  if (flags.giveUp) return { type: 'outcome.give_up' };
  try {
    return { type: 'outcome.happened', result: JSON.parse(flags.happened as string) };
  } catch {
    fail(command, 'runs reconcile: --happened must be JSON (a string in quotes: \'"sent"\')', 2);
  }
}

function printed(result: RunResult, flags: OperateFlags): string {
  if (flags.json) return JSON.stringify(result, null, 2);
  return result.status === 'paused' ? `paused in ${result.state}` : result.status;
}

function recoveryLines(report: RecoveryReport): string {
  const lines = [
    `resumed ${report.resumed.length}, parked ${report.parked.length}, still claimed ${report.stillClaimed.length}, unknown loop ${report.unknownLoop.length}, refused ${report.refused.length}`,
    ...report.resumed.map((r) => `  resumed ${r.runId} (${r.machineId}): ${r.status}`),
    ...report.parked.map((r) => `  parked ${r.runId} (${r.machineId}): ${r.step} in flight`),
    ...report.stillClaimed.map(
      (r) => `  still claimed ${r.runId}${r.owner ? ` by ${r.owner}` : ''}`,
    ),
    ...report.unknownLoop.map((r) => `  unknown loop ${r.runId}: ${r.machineId}`),
    ...report.refused.map((r) => `  refused ${r.runId}: ${r.code}`),
  ];
  return lines.join('\n');
}

function fail(command: Command, message: string, exitCode = 1): never {
  command.error(message, { exitCode, code: 'loopchart.runs.failed' });
  throw new Error(message);
}
