import { type LoopOutcome, runLoop } from 'loopchart';
import { abortReasonOf } from './forgedValues.js';
import { candidateOf } from './hostileValues.js';
import type { Scenario } from './Scenario.js';
import { type Probe, scriptedLoop } from './scriptedLoop.js';

/** How long a generated loop may take before the property calls it a hang. */
const WATCHDOG_MS = 15_000;

export interface ScenarioRun {
  outcome: LoopOutcome;
  probe: Probe;
  /** The step calls when the outcome arrived: no step may be called after the loop ended. */
  callsAtEnd: Probe['calls'];
}

/**
 * Runs one generated loop through `runLoop` with its abort plan. Rejects if `runLoop` throws or
 * does not end within the watchdog, so the property fails on either.
 */
export async function runScenario(scenario: Scenario): Promise<ScenarioRun> {
  const { config, probe } = scriptedLoop(scenario);
  const controller = new AbortController();
  const { abort } = scenario;
  const abortTimer =
    abort && abort.afterMs >= 0
      ? setTimeout(() => controller.abort(abortReasonOf(abort.reason)), abort.afterMs)
      : undefined;
  if (abort && abort.afterMs < 0) controller.abort(abortReasonOf(abort.reason));
  let watchdog: ReturnType<typeof setTimeout> | undefined;
  try {
    const outcome = await Promise.race([
      runLoop(config, inputOf(scenario), { signal: controller.signal }),
      new Promise<never>((_, reject) => {
        watchdog = setTimeout(
          () => reject(new Error(`the loop did not end within ${WATCHDOG_MS} ms`)),
          WATCHDOG_MS,
        );
      }),
    ]);
    return { outcome, probe, callsAtEnd: { ...probe.calls } };
  } finally {
    clearTimeout(abortTimer);
    clearTimeout(watchdog);
  }
}

function inputOf({ input }: Scenario): unknown {
  return candidateOf(input.tag, input.text, input.json);
}
