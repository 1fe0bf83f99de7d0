import type { LoopConfig } from '../../core/vocabulary/config.js';
import type { ValidationResult } from '../../core/vocabulary/validation.js';
import { checkPlan } from './planDocument.js';
import type { StageRegistry } from './stageRegistry.js';

type MaybePromise<T> = T | Promise<T>;

/** What the planner step receives on each attempt. */
export interface PlannerContext {
  request: string;
  /** Why the last plan was rejected, ready for the next prompt; undefined on the first attempt. */
  feedback: string | undefined;
  /** The last plan's problems, one sentence each (empty on the first attempt). */
  problems: readonly string[];
  /** 1-based attempt number. */
  attempt: number;
  /** The plan's JSON format and the registry's kinds, ready for a prompt. */
  instructions: string;
  signal: AbortSignal;
}

/** The planner: a step that returns an execution plan (JSON text or a value), run as a bounded loop. */
export interface PlannerOptions {
  /** Typically one model call; may return `withCost(reply, tokens)`. */
  plan: (ctx: PlannerContext) => unknown;
  /** Once the retries are spent: a plan to fall back on (checked like any other). */
  fallback?: (ctx: {
    request: string;
    partial: unknown;
    signal: AbortSignal;
  }) => MaybePromise<unknown>;
  /** Most stages a plan may have (default 12, 1–64). */
  maxStages?: number;
  /**
   * The planner loop's bounds and failure policy. Default `maxRetries: 2`, `idempotent:
   * { attempt: true }` (planning has no side effect, so a transient failure may be retried).
   */
  loop?: Omit<LoopConfig<string, unknown>, 'attempt' | 'validate' | 'refine' | 'fallback'>;
}

/**
 * The JSON format of a plan and the registry's kinds, for a planner's prompt.
 * @example const prompt = `${planInstructions(registry)}\n\nRequest: ${request}`;
 */
export function planInstructions(registry: StageRegistry): string {
  return [
    'Reply with an execution plan as JSON only:',
    '{"stages":[{"id":"…","kind":"…","dependsOn":["…"],"checkpoint":false,"params":{}}]}',
    'Each id is a letter followed by letters, digits, _ or -, and is unique; dependsOn names other',
    'stages of the plan and must not form a cycle; checkpoint pauses for a person after the stage.',
    'Stage kinds:',
    ...Object.entries(registry).map(
      ([kind, { description }]) => `- ${kind}${description ? `: ${description}` : ''}`,
    ),
  ].join('\n');
}

/** A plan check as a loop verdict: every problem is correctable, fed back to the planner. */
export function planVerdict(
  value: unknown,
  registry: StageRegistry,
  maxStages: number,
): ValidationResult {
  const check = checkPlan(value, registry, maxStages);
  if (check.ok) return { valid: true };
  const count = check.problems.length === 1 ? '1 problem' : `${check.problems.length} problems`;
  return {
    valid: false,
    error: {
      severity: 'correctable',
      message: [
        `The plan was rejected (${count}):`,
        ...check.problems.map((p) => `- ${p}`),
        'Reply with the corrected plan as JSON only.',
      ].join('\n'),
      details: { problems: check.problems },
    },
  };
}

/** The planner as a loop config: attempt = the planner step, validate = the plan check. */
export function plannerLoop(
  planner: PlannerOptions,
  registry: StageRegistry,
  maxStages: number,
): LoopConfig<string, unknown> {
  const instructions = planInstructions(registry);
  const { fallback } = planner;
  return {
    id: 'planner',
    maxRetries: 2,
    idempotent: { attempt: true },
    ...planner.loop,
    attempt: ({ input, feedback, attempt, signal }) => {
      const problems = (feedback?.details as { problems?: string[] } | undefined)?.problems ?? [];
      return planner.plan({
        request: input,
        feedback: feedback?.message,
        problems,
        attempt,
        instructions,
        signal,
      }) as never;
    },
    validate: (candidate) => planVerdict(candidate, registry, maxStages),
    ...(fallback
      ? {
          fallback: ({
            input,
            partial,
            signal,
          }: {
            input: string;
            partial: unknown;
            signal: AbortSignal;
          }) => fallback({ request: input, partial, signal }),
        }
      : {}),
  };
}
