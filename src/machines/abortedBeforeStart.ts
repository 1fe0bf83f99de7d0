import type { LoopOutcome } from '../outcome.js';
import { buildOutcome } from './buildOutcome.js';
import { initialContext } from './loopContext.js';
import { settingsOfLoop } from './loopMachine.js';
import { recordDecision } from './loopUpdates.js';

/**
 * The outcome of a run whose signal was aborted before it started: no step ran, so none is
 * counted. `undefined` for a machine loopchart did not build (it then starts and aborts at once).
 */
export function abortedBeforeStart(
  machine: object,
  input: unknown,
  reason: string,
): LoopOutcome | undefined {
  const settings = settingsOfLoop(machine);
  if (!settings) return undefined;
  const start = initialContext(settings, input);
  const context = { ...start, ledger: { ...start.ledger, abortReason: reason } };
  return buildOutcome('aborted', { ...context, ...recordDecision(context, 'aborted') });
}
