import type { LoopConfig } from '../config.js';

/**
 * Holds every step until the checkpoint taken before it is saved. XState starts an invoked step
 * before subscribers see the snapshot that invoked it, so the runner cannot save first; instead
 * each user step waits here, and never runs if that save failed (the runner then stops the actor,
 * which aborts the step's signal).
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

type AnyStep = (...args: never[]) => unknown;

/** The config with each step made to pass the gate first; bounds and structure are unchanged. */
export function gatedConfig<I, C>(config: LoopConfig<I, C>, gate: StepGate): LoopConfig<I, C> {
  const gated = <F>(step: F): F => {
    if (typeof step !== 'function') return step;
    const wrapper = async (...args: unknown[]) => {
      const ctx = args.at(-1) as { signal: AbortSignal };
      await gate.pass(ctx.signal);
      return (step as AnyStep)(...(args as never[]));
    };
    return wrapper as F;
  };
  return {
    ...config,
    attempt: gated(config.attempt),
    validate: gated(config.validate),
    ...(config.refine === undefined ? {} : { refine: gated(config.refine) }),
    ...(config.fallback === undefined ? {} : { fallback: gated(config.fallback) }),
  };
}
