import type { RouteFacts } from '../decisions/routeFacts.js';
import type { FailureRecord } from '../vocabulary/failures.js';
import type { Verdict } from '../vocabulary/validation.js';
import type { LoopContext } from './loopContext.js';

/**
 * The same facts, read from the context only when a guard asks for them: a routing state tries up
 * to eight guards, and each would otherwise copy all thirteen.
 */
export class ContextFacts implements RouteFacts {
  readonly #context: LoopContext;

  constructor(context: LoopContext) {
    this.#context = context;
  }

  get verdict(): Verdict | undefined {
    return this.#context.verdict;
  }
  get retryCount(): number {
    return this.#context.retryCount;
  }
  get maxRetries(): number {
    return this.#context.settings.maxRetries;
  }
  get attempts(): number {
    return this.#context.attempts;
  }
  get maxAttempts(): number {
    return this.#context.settings.maxAttempts;
  }
  get cost(): number {
    return this.#context.cost;
  }
  get maxCost(): number | null {
    return this.#context.settings.maxCost;
  }
  get stallRepeats(): number {
    return this.#context.stall.repeats;
  }
  get stallAfter(): number | null {
    return this.#context.settings.stall?.after ?? null;
  }
  get failure(): FailureRecord | undefined {
    return this.#context.failure;
  }
  get failedIdempotent(): boolean {
    const { failure, settings } = this.#context;
    return failure !== undefined && settings.idempotent[failure.step];
  }
  get maxRetryDelayMs(): number {
    return this.#context.settings.maxRetryDelayMs;
  }
  get transientRetried(): boolean {
    return this.#context.ledger.transientRetried;
  }
}
