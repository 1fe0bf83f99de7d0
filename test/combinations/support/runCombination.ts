import { type LoopOutcome, runLoop } from 'loopchart';
import { vi } from 'vitest';
import type { Combination } from './combination.js';
import { combinationConfig } from './combinationConfig.js';
import { inAgent } from './inAgent.js';
import { inAppActor } from './inAppActor.js';
import { inPipeline } from './inPipeline.js';
import { type Ledger, newLedger } from './ledger.js';
import { onStore } from './onStore.js';
import { newRunState, observers, type RunState } from './runState.js';
import { drive, simulatedNow } from './simulatedTime.js';
import { runBudgetMs } from './timeBudget.js';

/** What one combination came to: the loop's outcome, what the world saw, and the time it took. */
export interface CombinationRun extends RunState {
  outcome: LoopOutcome;
  ledger: Ledger;
  /** Simulated (monotonic) ms from the first call to the outcome. */
  elapsedMs: number;
  /** The most simulated time the config allows what the steps and the store did (timeBudget.ts). */
  budgetMs: number;
  /** Timers fired while the run waited. */
  firings: number;
}

/**
 * Runs a combination on its host to the end on simulated time (call `startSimulatedTime` first):
 * the wall clock jumps where the combination says; rejects with `Hang` when the run can never
 * settle, or with a crash of loopchart.
 */
export async function runCombination(c: Combination): Promise<CombinationRun> {
  vi.setSystemTime(vi.getRealSystemTime());
  const ledger = newLedger();
  const config = combinationConfig(c, ledger);
  const state = newRunState(c);
  const controller = new AbortController();
  const abortTimer =
    c.abortAfterMs === null
      ? undefined
      : setTimeout(() => controller.abort('the user cancelled'), c.abortAfterMs);
  const jump = c.faults.clockJump;
  const jumpTimer =
    jump === null
      ? undefined
      : setTimeout(() => vi.setSystemTime(Date.now() + jump.byMs), jump.atMs);
  const { signal } = controller;
  const started = simulatedNow();
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
          return onStore(c, c.host, config, ledger, signal, state);
      }
    })();
    const { value: outcome, firings } = await drive(run);
    const elapsedMs = simulatedNow() - started;
    const budgetMs = runBudgetMs(c, ledger, state);
    return { ...state, outcome, ledger, elapsedMs, budgetMs, firings };
  } finally {
    clearTimeout(abortTimer);
    clearTimeout(jumpTimer);
  }
}
