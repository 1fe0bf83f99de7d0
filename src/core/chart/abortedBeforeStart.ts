import { type AnyStateMachine, createActor } from 'xstate';
import type { LoopSettings } from '../vocabulary/config.js';
import type { LoopOutcome } from '../vocabulary/outcome.js';
import { buildOutcome } from './buildOutcome.js';
import { initialContext, type LoopContext } from './loopContext.js';
import { isBuiltLoopMachine } from './loopMachine.js';
import { recordDecision } from './loopUpdates.js';

/** The outcome of a run whose signal was aborted before it started: no step ran, none counted. */
export function abortedBeforeStart(
  settings: LoopSettings,
  input: unknown,
  reason: string,
): LoopOutcome {
  const start = initialContext(settings, input);
  const context = { ...start, ledger: { ...start.ledger, abortReason: reason } };
  return buildOutcome('aborted', { ...context, ...recordDecision(context, 'aborted') });
}

/**
 * `abortedBeforeStart` for a machine `createLoopMachine` built; `undefined` for any other machine
 * (it then starts and aborts at once). The actor is created for its initial context, never started.
 */
export function machineAbortedBeforeStart(
  machine: AnyStateMachine,
  input: unknown,
  reason: string,
): LoopOutcome | undefined {
  if (!isBuiltLoopMachine(machine)) return undefined;
  const { settings } = createActor(machine, { input: { input } }).getSnapshot()
    .context as LoopContext;
  return abortedBeforeStart(settings, input, reason);
}
