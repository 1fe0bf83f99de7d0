/** What the steps did, counted across every process of one run (the outside world's view). */
export interface Ledger {
  /** Calls that may have acted, by `step:attempt:iteration`. */
  effects: Map<string, number>;
  /** Attempt numbers the attempt step was called with. */
  attemptNumbers: Set<number>;
  /** Attempt invocations (each transient retry included). */
  attemptCalls: number;
  calls: number;
  /** The cost the steps handed back to a loop that was still waiting for them, summed. */
  costReported: number;
  /** When each model call came, what it was told to answer, and the delay a 429 asked for. */
  modelCalls: { at: number; reply: string; retryAfterMs?: number }[];
  /** Companion stages of the pipeline host: their calls, by stage. */
  companions: Map<string, number>;
  /** The cross-check's calls, and any that broke its contract (fewer than 2 stages, wrong keys). */
  crossChecks: { calls: number; problems: string[] };
}

export function newLedger(): Ledger {
  return {
    effects: new Map(),
    attemptNumbers: new Set(),
    attemptCalls: 0,
    calls: 0,
    costReported: 0,
    modelCalls: [],
    companions: new Map(),
    crossChecks: { calls: 0, problems: [] },
  };
}

/** Counts one call that may have acted (a success, an unknown effect, a hang). */
export function acted(ledger: Ledger, key: string): void {
  ledger.effects.set(key, (ledger.effects.get(key) ?? 0) + 1);
}

/** Counts a step's reported cost, unless its signal was aborted first (the loop stopped waiting). */
export function reported(ledger: Ledger, signal: AbortSignal, cost: number): void {
  if (!signal.aborted) ledger.costReported += cost;
}

/** A step that settles only when its signal aborts: a hung call. */
export function hang(signal: AbortSignal): Promise<never> {
  return new Promise<never>((_, reject) =>
    signal.addEventListener('abort', () => reject(signal.reason)),
  );
}
