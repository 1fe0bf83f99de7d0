import { performance } from 'node:perf_hooks';
import { type LoopOutcome, runLoop } from 'loopchart';
import { type Combination, deadlineOf } from './combination.js';
import { combinationConfig } from './combinationConfig.js';
import { inAgent } from './inAgent.js';
import { inAppActor } from './inAppActor.js';
import { inPipeline } from './inPipeline.js';
import { type Ledger, newLedger } from './ledger.js';
import { onStore } from './onStore.js';
import { newRunState, observers, type RunState } from './runState.js';
import { runBudgetMs } from './timeBudget.js';

/** What one combination came to: the loop's outcome, what the world saw, and the time it took. */
export interface CombinationRun extends RunState {
  outcome: LoopOutcome;
  ledger: Ledger;
  elapsedMs: number;
  /** Of that, the time the event loop spent running code (loopchart's, the steps', the harness's). */
  activeMs: number;
  /** The most live time the config allows what the steps did (timeBudget.ts). */
  budgetMs: number;
}

const WATCHDOG_MS = 5000;

/** Runs a combination on its host to the end; rejects on a hang, a crash of loopchart, or a broken promise. */
export async function runCombination(c: Combination): Promise<CombinationRun> {
  const ledger = newLedger();
  const config = combinationConfig(c, ledger);
  const state = newRunState(c);
  const controller = new AbortController();
  const abortTimer =
    c.abortAfterMs === null
      ? undefined
      : setTimeout(() => controller.abort('the user cancelled'), c.abortAfterMs);
  const { signal } = controller;
  const started = Date.now();
  const loop = performance.eventLoopUtilization();
  let watchdog: ReturnType<typeof setTimeout> | undefined;
  try {
    const run = (async () => {
      switch (c.host) {
        case 'plain':
          state.calls += 1;
          return runLoop(config, 'task', { signal, ...observers(state) });
        case 'actor':
          return inAppActor(c, config, signal, state);
        case 'pipeline':
          return inPipeline(c, config, ledger, signal, state);
        case 'agent':
          return inAgent(c, config, ledger, signal, state);
        default:
          return onStore(c, c.host, config, signal, state);
      }
    })();
    const outcome = await Promise.race([
      run,
      new Promise<never>((_, reject) => {
        watchdog = setTimeout(
          () =>
            reject(
              new Error(
                `the run did not settle within ${WATCHDOG_MS} ms (deadlineMs ${deadlineOf(c)})`,
              ),
            ),
          WATCHDOG_MS,
        );
      }),
    ]);
    const elapsedMs = Date.now() - started;
    const activeMs = performance.eventLoopUtilization(loop).active;
    const budgetMs = runBudgetMs(c, ledger, state);
    return { ...state, outcome, ledger, elapsedMs, activeMs, budgetMs };
  } finally {
    clearTimeout(abortTimer);
    clearTimeout(watchdog);
  }
}
