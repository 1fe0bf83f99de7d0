import { createLoopMachine } from '../../../core/chart/compileLoop.js';
import type { LoopMachine } from '../../../core/chart/loopMachine.js';
import type { LoopConfig } from '../../../core/vocabulary/config.js';
import type { LoopOutcome } from '../../../core/vocabulary/outcome.js';
import { withTimeLimit } from '../../../core/vocabulary/withTimeLimit.js';
import { runLoopMachine } from '../../../runners/loop/runLoop.js';

/** Builds the machine a check runs: `createLoopMachine`, or a deliberately altered one. */
export type BuildMachine = (config: LoopConfig<unknown, unknown>) => LoopMachine<unknown, unknown>;

export const buildLoopMachine: BuildMachine = (config) => createLoopMachine(config);

/** One check of the behaviour battery (SPEC §11): resolves to a short note, throws if it fails. */
export interface BatteryCheck {
  name: string;
  run(build: BuildMachine): Promise<string>;
}

/** A failed expectation of a check; its message is printed after the check's name. */
export class CheckFailed extends Error {
  override readonly name = 'CheckFailed';
}

/** Throws `CheckFailed` unless `actual` equals `expected` (compared as JSON). */
export function expectEqual(what: string, actual: unknown, expected: unknown): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new CheckFailed(`expected ${what} ${e}, got ${a}`);
}

export function expectThat(condition: boolean, message: string): void {
  if (!condition) throw new CheckFailed(message);
}

const RUN_TIMEOUT_MS = 20_000;

/** A run the battery drives: its signal aborts, and the check fails, when it takes over 20 s. */
export function withinRunTimeout<T>(start: (signal: AbortSignal) => Promise<T>): Promise<T> {
  return withTimeLimit(start, {
    ms: RUN_TIMEOUT_MS,
    timeout: () => new CheckFailed(`the run did not finish within ${RUN_TIMEOUT_MS} ms`),
  });
}

/** Runs a config through `build`; a run that does not finish in 20 s is aborted and fails the check. */
export async function runChecked<C>(
  build: BuildMachine,
  config: LoopConfig<unknown, C>,
  input: unknown = 'task',
): Promise<LoopOutcome<C>> {
  const machine = build(config as LoopConfig<unknown, unknown>);
  const outcome = await withinRunTimeout((signal) => runLoopMachine(machine, input, { signal }));
  return outcome as LoopOutcome<C>;
}

/** The decisions a run recorded in its trace, in order. */
export function decisionsOf(outcome: LoopOutcome<unknown>): string[] {
  return outcome.trace.flatMap((entry) => (entry.decision ? [entry.decision] : []));
}
