import {
  generateText,
  type LanguageModelUsage,
  NoObjectGeneratedError,
  NoOutputGeneratedError,
  type Output,
} from 'ai';
import type { LoopConfig, StepContext } from '../../core/vocabulary/config.js';
import { type FailureClassifier, permanentFailure } from '../../core/vocabulary/failures.js';
import { LoopConfigError } from '../../core/vocabulary/LoopConfigError.js';
import { type CostedResult, withCost } from '../../core/vocabulary/stepResults.js';
import type { ValidationError, ValidationResult } from '../../core/vocabulary/validation.js';
import { describeIssues } from '../schemaValidator/schemaIssues.js';
import { classifyModelFailure } from './classifyModelFailure.js';
import {
  fromNoObject,
  isUnusableOutput,
  refusalMessage,
  type UnusableOutput,
  unusableOutput,
} from './unusableOutput.js';
import { withReask } from './withReask.js';

type GenerateTextOptions = Parameters<typeof generateText>[0];
type WithoutKeys<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * The `generateText` options of one attempt, without `abortSignal` (the loop passes its own):
 * `Output.object({ schema })` as `output` makes the candidate the schema's type.
 */
export type ModelCall<T> = WithoutKeys<
  GenerateTextOptions,
  'output' | 'experimental_output' | 'abortSignal'
> & { output?: Output.Output<T, unknown, unknown> };

/** Options of `modelSteps`. */
export interface ModelStepsOptions<I, T> {
  /** Builds the call from the step's ctx (`input`, `attempt`…); the feedback is added for you. */
  call: (ctx: StepContext<I>) => ModelCall<T> | Promise<ModelCall<T>>;
  /** Checks a generated value further (the schema is already checked); default: accept it. */
  validate?: (
    value: T,
    ctx: StepContext<I, T | UnusableOutput>,
  ) => ValidationResult | Promise<ValidationResult>;
  /** A call's cost from its usage (tokens, dollars); default `usage.totalTokens`. */
  cost?: (usage: LanguageModelUsage) => number;
  /** The message that puts a rejection to the model; default "Your last answer was rejected: …". */
  reask?: (feedback: ValidationError) => string;
  /** True when a reply is a refusal; default: the finish reason is `content-filter`. */
  isRefusal?: (reply: { text: string; finishReason: string | undefined }) => boolean;
  /** Default true: a plain generation has no external effect. Set false when its tools act. */
  idempotent?: boolean;
}

/**
 * The config of a loop whose steps `modelSteps` made: its candidate is the generated `T` or an
 * `UnusableOutput` (a reply the validator rejects; it can be a `partial`, never a `proceed`
 * candidate). A text-only `modelSteps` fills a `ModelLoopConfig<string>`.
 * @example const loop: ModelLoopConfig<string> = { ...modelSteps({ call: ({ input }) => ({ model, prompt: input }) }), maxRetries: 2 };
 */
export type ModelLoopConfig<I = string, T = string> = LoopConfig<I, T | UnusableOutput>;

/** The loop steps `modelSteps` returns; spread them into a loop config. */
export interface ModelSteps<I, T> {
  attempt: (ctx: StepContext<I>) => Promise<CostedResult<T | UnusableOutput>>;
  validate: (
    candidate: T | UnusableOutput,
    ctx: StepContext<I, T | UnusableOutput>,
  ) => Promise<ValidationResult>;
  classifyFailure: FailureClassifier;
  idempotent: { attempt: boolean };
}

/**
 * Makes a Vercel AI SDK `generateText` call a loop's attempt and validator: the attempt passes
 * `ctx.signal` and the last rejection into the call (SDK retries off: the loop retries), and
 * reports usage as `cost`, failed calls included; an `Output.object` reply that does not match
 * the schema becomes a `correctable` verdict naming each issue (so the loop reasks), a refusal a
 * `fundamental` one; rate limits and other retryable API errors are transient with their
 * `retry-after`. The call's `input` is a `string` unless its ctx is annotated
 * (`({ input }: { input: Ticket })`); the candidate is `T` once the loop proceeds.
 * @example const steps = modelSteps({ call: ({ input }) => ({ model, output: Output.object({ schema }), prompt: input }) });
 *          const outcome = await runLoop({ ...steps, maxRetries: 2, maxCost: 20_000 }, 'Summarise the memo');
 */
export function modelSteps<I = string, T = string>(
  options: ModelStepsOptions<I, T>,
): ModelSteps<I, T> {
  checkOptions(options as unknown as Record<string, unknown>);
  const { call, cost = totalTokens, reask, isRefusal = contentFiltered } = options;
  const costOf = (usage: LanguageModelUsage | undefined) => (usage ? safeCost(cost, usage) : 0);

  async function attempt(ctx: StepContext<I>): Promise<CostedResult<T | UnusableOutput>> {
    const request = await call(ctx);
    const options = withReask(request, ctx.feedback, ctx.previous, reask);
    let result: Awaited<ReturnType<typeof generateText>>;
    try {
      result = await generateText({
        maxRetries: 0,
        ...(options as GenerateTextOptions),
        abortSignal: ctx.signal,
      });
    } catch (error) {
      if (!NoObjectGeneratedError.isInstance(error)) throw error;
      const refused = isRefusal({ text: error.text ?? '', finishReason: error.finishReason });
      return withCost(fromNoObject(error, refused), costOf(error.usage));
    }
    const spent = costOf(result.totalUsage);
    const { text, finishReason } = result;
    if (isRefusal({ text, finishReason })) {
      return withCost(unusableOutput('refusal', text, refusalMessage(text), finishReason), spent);
    }
    if (request.output === undefined) return withCost(text as T, spent);
    try {
      return withCost(result.output as T, spent);
    } catch (error) {
      if (!NoOutputGeneratedError.isInstance(error)) throw error;
      const message = 'The reply held no output. Answer with the requested JSON.';
      return withCost(unusableOutput('no_output', text, message, finishReason), spent);
    }
  }

  async function validate(
    candidate: T | UnusableOutput,
    ctx: StepContext<I, T | UnusableOutput>,
  ): Promise<ValidationResult> {
    if (!isUnusableOutput(candidate)) {
      return options.validate ? options.validate(candidate, ctx) : { valid: true };
    }
    if (candidate.kind === 'refusal') {
      return { valid: false, error: { severity: 'fundamental', message: candidate.message } };
    }
    const message =
      candidate.kind === 'schema_mismatch' ? describeIssues(candidate.issues) : candidate.message;
    return {
      valid: false,
      error: {
        severity: 'correctable',
        message,
        details: { kind: candidate.kind, issues: [...candidate.issues] },
      },
    };
  }

  return {
    attempt,
    validate,
    classifyFailure: classifyModelFailure,
    idempotent: { attempt: options.idempotent ?? true },
  };
}

function totalTokens(usage: LanguageModelUsage): number {
  return usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
}

/** A cost function that throws or answers nonsense fails the attempt (permanent), loudly. */
function safeCost(cost: (usage: LanguageModelUsage) => number, usage: LanguageModelUsage) {
  const value = cost(usage);
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  throw permanentFailure(
    `modelSteps cost returned ${String(value)}; a cost must be a finite number ≥ 0`,
  );
}

function contentFiltered(reply: { finishReason: string | undefined }): boolean {
  return reply.finishReason === 'content-filter';
}

function checkOptions(options: Record<string, unknown>) {
  const problems: string[] = [];
  const fn = (name: string, required = false) => {
    const value = options?.[name];
    if (value === undefined && !required) return;
    if (typeof value !== 'function') problems.push(`  - ${name}: must be a function`);
  };
  fn('call', true);
  fn('validate');
  fn('cost');
  fn('reask');
  fn('isRefusal');
  const { idempotent } = options ?? {};
  if (idempotent !== undefined && typeof idempotent !== 'boolean') {
    problems.push('  - idempotent: must be true or false');
  }
  if (problems.length) {
    throw new LoopConfigError(`loopchart: invalid modelSteps options\n${problems.join('\n')}`);
  }
}
