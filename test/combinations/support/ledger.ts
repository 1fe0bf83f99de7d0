import { type ModelReply, RETRY_DELAY_MS, type Step } from './combination.js';
import type { StoreFaultLog } from './faultyStore.js';

/** What may hang: a step, a pipeline's cross-check, an agent's model check. */
export type Hung = Step | 'crossCheck' | 'modelCheck';

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
  /** The most one call of each step handed back (for maxCost's reservation: was its estimate honest?). */
  mostReported: Partial<Record<Step, number>>;
  /** Calls of validate, refine and fallback, by step (attempt calls are `attemptNumbers`). */
  stepCalls: Record<Exclude<Step, 'attempt'>, number>;
  /** When each model call came, what it was told to answer, and the delay a 429 asked for. */
  modelCalls: { at: number; reply: ModelReply; retryAfterMs?: number }[];
  /** Companion stages of the pipeline host: their calls, by stage. */
  companions: Map<string, number>;
  /** The cross-check's calls, and any that broke its contract (fewer than 2 stages, wrong keys). */
  crossChecks: { calls: number; problems: string[] };
  /** What may take time: calls that hung (until a timeout or the deadline), and retry waits asked for. */
  time: { hangs: Hung[]; waitsMs: number };
  /** What the faulty store did (faultyStore.ts). */
  store: StoreFaultLog;
  /** Answer checks that never answered (the config's schemas hang): each ends by the run's time. */
  schemaHangs: number;
}

export function newLedger(): Ledger {
  return {
    effects: new Map(),
    attemptNumbers: new Set(),
    attemptCalls: 0,
    calls: 0,
    costReported: 0,
    mostReported: {},
    stepCalls: { validate: 0, refine: 0, fallback: 0 },
    modelCalls: [],
    companions: new Map(),
    crossChecks: { calls: 0, problems: [] },
    time: { hangs: [], waitsMs: 0 },
    store: { hangs: 0, loadHangs: 0, lateCalls: 0, lateMs: 0, lateLoadsMs: [], thrown: [] },
    schemaHangs: 0,
  };
}

/** A failure that may be retried after `ms` (a transient one, or a timeout of an idempotent step). */
export function asksWait(ledger: Ledger, ms: number): void {
  ledger.time.waitsMs += ms;
}

/** Counts one call that may have acted (a success, an unknown effect, a hang). */
export function acted(ledger: Ledger, key: string): void {
  ledger.effects.set(key, (ledger.effects.get(key) ?? 0) + 1);
}

/** Counts a step's reported cost, unless its signal was aborted first (the loop stopped waiting). */
export function reported(
  ledger: Ledger,
  signal: AbortSignal,
  cost: number,
  step: Step = 'attempt',
): void {
  if (signal.aborted) return;
  ledger.costReported += cost;
  ledger.mostReported[step] = Math.max(ledger.mostReported[step] ?? 0, cost);
}

/** A call that hung: it lasts until its timeout or the deadline, and may be retried after a wait. */
export function hung(ledger: Ledger, step: Hung): void {
  ledger.time.hangs.push(step);
  asksWait(ledger, RETRY_DELAY_MS);
}

/** A call that settles only when its signal aborts. */
export function hang(ledger: Ledger, step: Hung, signal: AbortSignal): Promise<never> {
  hung(ledger, step);
  return new Promise<never>((_, reject) =>
    signal.addEventListener('abort', () => reject(signal.reason)),
  );
}
