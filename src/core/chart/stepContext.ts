import type { StepBudget } from '../vocabulary/stepBudget.js';
import type { StepInput } from './stepActors.js';

/**
 * The frozen ctx a step is called with. Its `signal` is made when the step first reads it, and
 * most steps never do: an own, enumerable getter, as in an object literal, but one shared by every
 * ctx (a getter of its own per object makes V8 turn each ctx into a slow dictionary object).
 */
export function stepContext(
  input: StepInput,
  signal: () => AbortSignal,
  budget: StepBudget,
): Readonly<Record<string, unknown>> {
  const ctx = {
    input: input.input,
    feedback: input.feedback,
    previous: input.previous,
    candidate: input.candidate,
    // the spec's names for what a refine or a fallback is given
    partial: input.candidate,
    error: input.feedback,
    iteration: input.iteration,
    attempt: input.attempt,
    key: input.key,
    answers: input.answers,
    budget,
  };
  Object.defineProperty(ctx, 'signal', SIGNAL);
  new SignalOf(ctx, signal);
  return Object.freeze(ctx);
}

// A constructor that returns another object makes `this` that object in a subclass, so the
// subclass can give a plain ctx a private field: where it keeps its signal, unseen by keys,
// spreads and JSON.
class Given {
  constructor(object: object) {
    // biome-ignore lint/correctness/noConstructorReturn: the object receives the private field
    return object;
  }
}

class SignalOf extends Given {
  #signal: () => AbortSignal;

  constructor(ctx: object, signal: () => AbortSignal) {
    super(ctx);
    this.#signal = signal;
  }

  static read(ctx: object): AbortSignal {
    return (ctx as SignalOf).#signal();
  }
}

const SIGNAL: PropertyDescriptor = {
  enumerable: true,
  get(this: object) {
    return SignalOf.read(this);
  },
};
