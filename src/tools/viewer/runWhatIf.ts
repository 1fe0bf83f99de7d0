import { type AnyStateMachine, initialTransition } from 'xstate';
import { loopView } from '../../core/chart/loopView.js';
import type { LoopOutcome } from '../../core/vocabulary/outcome.js';
import { candidateSettings, type WhatIfChange } from '../whatif/candidateSettings.js';
import type { RecordedRun } from '../whatif/recordedRun.js';
import { redecideRun } from '../whatif/redecideRun.js';
import { changeText } from '../whatif/whatIfLines.js';

/** One line of a run report's what-if panel: the candidate and what the run would have done. */
export interface RunWhatIfLine {
  candidate: string;
  text: string;
}

/**
 * A finished run re-decided under each candidate, as the run report's what-if panel says it. An
 * outcome does not keep its last failure's effect and delay, so a run that ended on a failure is
 * unknown from that step.
 * @example runWhatIfLines(machine, outcome, [{ maxRetries: 1 }]) // [{ candidate: 'maxRetries=1', text: 'proceed → fallback …' }]
 */
export function runWhatIfLines(
  machine: AnyStateMachine,
  outcome: LoopOutcome,
  changes: readonly WhatIfChange[],
): RunWhatIfLine[] {
  let settings: RecordedRun['settings'] | undefined;
  try {
    settings = loopView(initialTransition(machine, { input: undefined })[0])?.settings;
  } catch {
    settings = undefined;
  }
  if (!settings) return [];
  const run: RecordedRun = {
    runId: 'report',
    machineId: machine.id,
    status: outcome.status,
    attempts: outcome.attempts,
    iterations: outcome.iterations,
    cost: outcome.cost,
    settings,
    trace: outcome.trace,
    verdict: undefined,
    failure: undefined,
  };
  return changes.map((change) => {
    const decision = redecideRun(run, candidateSettings(settings, change));
    const candidate = changeText({ change });
    if (!decision.exact) {
      return { candidate, text: `unknown beyond step ${decision.beyondStep}: ${decision.reason}` };
    }
    const { outcome: after } = decision;
    return {
      candidate,
      text: `${outcome.status} → ${after.status}; attempts ${outcome.attempts} → ${after.attempts}; cost ${outcome.cost} → ${after.cost}`,
    };
  });
}
