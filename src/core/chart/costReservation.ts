import { type FailureRecord, markFailureRecord, type StepName } from '../vocabulary/failures.js';

/**
 * The failure of a step that was not called because its declared cost, reserved on top of what
 * the run has spent, would pass `maxCost` (SPEC §15). It ends the run `budget_stop` before the
 * call, so a run whose steps report no more than their estimates never spends more than maxCost.
 */
export function reservationRefusal(
  step: StepName,
  estimate: number | undefined,
  spent: number,
  maxCost: number | null,
): FailureRecord | undefined {
  if (maxCost === null) return undefined;
  if (estimate === undefined ? spent < maxCost : spent + estimate <= maxCost) return undefined;
  return markFailureRecord({
    step,
    kind: 'permanent',
    effect: 'none',
    message:
      estimate === undefined
        ? `${step} was not called: the ${spent} spent has reached maxCost ${maxCost}`
        : `${step} was not called: its reserved cost ${estimate} on top of the ${spent} spent would pass maxCost ${maxCost}`,
    name: 'LoopBudgetReservation',
    budget: true,
  });
}
