import type { LoopConfig } from '../../core/vocabulary/config.js';
import { LoopConfigError } from '../../core/vocabulary/LoopConfigError.js';
import type { RunResult } from '../loop/PausedRun.js';
import type { CheckpointOptions } from '../loop/prepareLoop.js';
import { branchSource, checkCapsLeft, driveBranch, type Spent } from './branchRun.js';
import { branchSnapshot } from './branchSnapshot.js';

/** More of each budget for a continued run, on top of what the original spent. */
export interface TopUp {
  /** More refines (default 1). */
  retries?: number;
  /** More attempt invocations (default: as many as `retries`). */
  attempts?: number;
  /** More cost (default: the config's `maxCost` stands as it is). */
  cost?: number;
  /** The continued run's own wall-clock budget (default: the config's `deadlineMs`). */
  deadlineMs?: number | null;
}

/** Options of `continueRun`. */
export interface ContinueOptions extends CheckpointOptions {
  /** The capped run to continue; its row is never changed. */
  runId: string;
  /** The new run's id (default a random UUID). */
  newRunId?: string;
  topUp?: TopUp;
  signal?: AbortSignal;
}

/**
 * The config a continued run runs under: the original's caps raised by the top-up over what it
 * spent. Resume a continued run that paused with this config.
 * @example resumeLoop(topUpConfig(config, spent, { retries: 2 }), { store, runId: next, event });
 */
export function topUpConfig<I, C>(
  config: LoopConfig<I, C>,
  spent: Spent,
  topUp: TopUp = {},
): LoopConfig<I, C> {
  const { retries = 1, attempts = retries, cost, deadlineMs } = topUp;
  const problems = (
    [
      ['retries', retries],
      ['attempts', attempts],
    ] as const
  )
    .filter(([, n]) => !(Number.isSafeInteger(n) && n >= 1))
    .map(([name]) => `  - topUp.${name}: must be an integer ≥ 1`);
  if (cost !== undefined && !(Number.isFinite(cost) && cost > 0)) {
    problems.push('  - topUp.cost: must be a positive number');
  }
  if (problems.length) {
    throw new LoopConfigError(`loopchart: invalid top-up\n${problems.join('\n')}`);
  }
  return {
    ...config,
    maxRetries: spent.retries + retries,
    maxAttempts: spent.attempts + attempts,
    ...(cost === undefined ? {} : { maxCost: spent.cost + cost }),
    ...(deadlineMs === undefined ? {} : { deadlineMs }),
  };
}

/**
 * Continues a run that stopped at a cap (`iteration_exhausted`, `ceiling_stop`, `budget_stop`
 * at a correctable verdict, or `retry_exhausted`) as a new linked run: it starts by refining the
 * original's last candidate with its feedback (or by running the failed step again), under caps
 * raised by `topUp` over what the original spent. No
 * recorded step runs again; the original's row stays byte-identical; the new run's ledger keeps
 * the link and its trace a `refine` decision naming the top-up. Refuses with `CheckpointError`
 * `not_waiting` a run that did not stop at a refinable verdict, and with `LoopConfigError` caps
 * past their ranges.
 * @example const next = await continueRun(config, { store, runId: 'r1', topUp: { retries: 2 } });
 */
export async function continueRun<I, C>(
  config: LoopConfig<I, C>,
  options: ContinueOptions,
): Promise<RunResult<C>> {
  const { store, runId, topUp } = options;
  const source = await branchSource(store, runId);
  const next = topUpConfig(config, source.spent, topUp);
  const newRunId = options.newRunId ?? globalThis.crypto.randomUUID();
  return driveBranch(next, { ...options, runId: newRunId }, (settings) => {
    checkCapsLeft(settings, source.spent, source.start);
    const caps = {
      maxRetries: settings.maxRetries,
      maxAttempts: settings.maxAttempts,
      maxCost: settings.maxCost,
      deadlineMs: settings.deadlineMs,
    };
    const link = {
      kind: 'continue' as const,
      from: runId,
      fromSeq: source.record.seq,
      spent: source.spent,
      caps,
    };
    const because = `Continued from run ${runId} (${source.checkpoint.state}) with a top-up to maxRetries ${caps.maxRetries}, maxAttempts ${caps.maxAttempts}, maxCost ${caps.maxCost ?? 'none'}.`;
    return branchSnapshot(source.context, settings, because, link, source.start);
  });
}
