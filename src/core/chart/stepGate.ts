/**
 * Holds every step until the checkpoint taken before it is saved. XState starts an invoked step
 * before subscribers see the snapshot that invoked it, so the runner cannot save first; instead
 * each step actor waits here before the user's function begins, and never begins it if that save
 * failed (the runner then stops the actor, which aborts the step's signal). Until it begins a
 * step is not in flight: its own timeout has not started (the run's deadline has).
 */
export class StepGate {
  #saved: Promise<unknown> = Promise.resolve();
  #waitingAttempt: number | undefined;

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

  /** Attempt number `attempt` waits here for its checkpoint: it has not begun. */
  attemptWaits(attempt: number): void {
    this.#waitingAttempt = attempt;
  }

  attemptPassed(attempt: number): void {
    if (this.#waitingAttempt === attempt) this.#waitingAttempt = undefined;
  }

  /** True while attempt `attempt` waits for its checkpoint: a stop then has not invoked it. */
  isWaiting(attempt: number): boolean {
    return this.#waitingAttempt === attempt;
  }
}
