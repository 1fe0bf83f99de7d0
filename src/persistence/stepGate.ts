import type { LoopConfig } from '../config.js';

const GATE = Symbol('loopchart.stepGate');

/**
 * Holds every step until the checkpoint taken before it is saved. XState starts an invoked step
 * before subscribers see the snapshot that invoked it, so the runner cannot save first; instead
 * each step actor waits here before the user's function begins, and never begins it if that save
 * failed (the runner then stops the actor, which aborts the step's signal). Until it begins a
 * step is not in flight: its own timeout has not started (the run's deadline has).
 */
export class StepGate {
  #saved: Promise<unknown> = Promise.resolve();

  /** The save every step started from now on must wait for. */
  hold(saved: Promise<unknown>): void {
    this.#saved = saved;
  }

  async pass(signal: AbortSignal): Promise<void> {
    // steps start synchronously, before the runner sees the snapshot and holds its save: yield once
    await Promise.resolve();
    await this.#saved;
    if (signal.aborted) throw signal.reason;
  }
}

/** The config with its steps made to pass the gate first; bounds and structure are unchanged. */
export function gatedConfig<I, C>(config: LoopConfig<I, C>, gate: StepGate): LoopConfig<I, C> {
  return { ...config, [GATE]: gate } as LoopConfig<I, C>;
}

/** The gate a config's steps wait at (`gatedConfig`), if any. */
export function gateOf(config: object): StepGate | undefined {
  return (config as { [GATE]?: StepGate })[GATE];
}
