import type { LoopConfig } from '../../core/vocabulary/config.js';
import type { RunResult } from '../loop/PausedRun.js';
import type { CheckpointOptions } from '../loop/prepareLoop.js';
import { branchSource, checkCapsLeft, driveBranch } from './branchRun.js';
import { branchSnapshot } from './branchSnapshot.js';

/** Options of `forkRun`. */
export interface ForkOptions<I = unknown> extends CheckpointOptions {
  /** The run to fork; its row is never changed. */
  runId: string;
  /** The recorded checkpoint to fork from: the run's stored one (the default). */
  fromSeq?: number;
  /** The fork's id (default a random UUID). */
  newRunId?: string;
  /** Another input for the fork's refine to work from (default the original's). */
  input?: I;
  signal?: AbortSignal;
}

/**
 * Starts a linked run from a recorded checkpoint of another, under `config` (its caps checked
 * against what the original already spent): the recorded steps are taken from the record, never
 * run again, and the fork goes on by refining the last candidate — with `input` in place of the
 * original's if given. The original's row stays byte-identical. A store keeps each run's latest
 * checkpoint only, so `fromSeq` can name that one; the original must have stopped at a
 * correctable verdict (else `CheckpointError` `not_waiting`).
 * @example const fork = await forkRun(strictConfig, { store, runId: 'r1', input: 'shorter, please' });
 */
export async function forkRun<I, C>(
  config: LoopConfig<I, C>,
  options: ForkOptions<NoInfer<I>>,
): Promise<RunResult<C>> {
  const { store, runId } = options;
  const source = await branchSource(store, runId, options.fromSeq);
  const newRunId = options.newRunId ?? globalThis.crypto.randomUUID();
  return driveBranch(config, { ...options, runId: newRunId }, (settings) => {
    checkCapsLeft(settings, source.spent, source.start);
    const link = {
      kind: 'fork' as const,
      from: runId,
      fromSeq: source.record.seq,
      spent: source.spent,
      caps: {
        maxRetries: settings.maxRetries,
        maxAttempts: settings.maxAttempts,
        maxCost: settings.maxCost,
        deadlineMs: settings.deadlineMs,
      },
    };
    const because = `Forked from run ${runId} at checkpoint #${source.record.seq}.`;
    const replaced = options.input === undefined ? undefined : { input: options.input };
    return branchSnapshot(source.context, settings, because, link, source.start, replaced);
  });
}
