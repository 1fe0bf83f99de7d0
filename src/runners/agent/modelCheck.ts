import { withTimeLimit } from '../../core/vocabulary/withTimeLimit.js';

type MaybePromise<T> = T | Promise<T>;

/** What the model check's `ask` receives: the prompt and the caps to pass to the model call. */
export interface ModelCheckCall {
  prompt: string;
  request: string;
  /** Pass it to the call (`maxOutputTokens` in the AI SDK); a reply reporting more is discarded. */
  maxTokens: number;
  /** Aborts when `timeoutMs` passes or the run is aborted. */
  signal: AbortSignal;
}

/** The reply: the text, or the text and the output tokens the call used. */
export type ModelCheckReply = string | { text: string; tokens?: number };

/** The optional second tier of the router: one bounded "simple or complex?" model call. */
export interface ModelCheckOptions {
  ask: (call: ModelCheckCall) => MaybePromise<ModelCheckReply>;
  /** Output-token cap of the call (default 16, 1–1000). */
  maxTokens?: number;
  /** Time cap of the call in ms (default 3000, 1–60000); past it the heuristic decides. */
  timeoutMs?: number;
  /** `'unmatched'` (default): ask only when no heuristic rule matched; `'always'`: ask every time. */
  when?: 'unmatched' | 'always';
  /** The prompt; default asks for one word, `simple` or `complex`. */
  prompt?: (request: string) => string;
}

/** How the model check went; every status but `answered` leaves the decision to the heuristic. */
export interface ModelCheckReport {
  status: 'answered' | 'garbage' | 'timeout' | 'over_budget' | 'failed' | 'aborted';
  answer?: 'simple' | 'complex';
  /** The reply's first 200 characters. */
  reply?: string;
  tokens?: number;
  durationMs: number;
  message: string;
}

export const defaultCheckPrompt = (request: string): string =>
  [
    'Is this request simple (one lookup or one direct answer) or complex (several parts,',
    'comparisons, or steps that depend on each other)? Answer with one word: simple or complex.',
    '',
    `Request: ${request}`,
  ].join('\n');

/**
 * Runs the model check within its caps. Never throws: a reply that is not `simple` or `complex`,
 * a call past `timeoutMs` (even one that ignores its signal), a reply over `maxTokens` or a
 * failed call is reported, and the caller falls back to the heuristic.
 * @example const report = await askModelCheck({ ask, maxTokens: 16, timeoutMs: 3000, when: 'unmatched', prompt }, 'Compare A and B', signal);
 */
export async function askModelCheck(
  check: Required<ModelCheckOptions>,
  request: string,
  runSignal?: AbortSignal,
): Promise<ModelCheckReport> {
  const started = Date.now();
  const late = new Error(`the model check took longer than ${check.timeoutMs} ms`);
  const call = async (signal: AbortSignal): Promise<ModelCheckReport> => {
    try {
      const prompt = check.prompt(request);
      const reply = await check.ask({ prompt, request, maxTokens: check.maxTokens, signal });
      return readReply(reply, check.maxTokens, Date.now() - started);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return {
        status: 'failed',
        durationMs: Date.now() - started,
        message: `the model check failed: ${why}`,
      };
    }
  };
  try {
    return await withTimeLimit(call, {
      ms: check.timeoutMs,
      timeout: () => late,
      signal: runSignal,
    });
  } catch (stopped) {
    // only the limit rejects (a failed call is a report): the timeout, or the run's abort
    const [status, message] =
      stopped === late
        ? (['timeout', late.message] as const)
        : (['aborted', 'the run was aborted during the model check'] as const);
    return { status, durationMs: Date.now() - started, message };
  }
}

function readReply(reply: unknown, maxTokens: number, durationMs: number): ModelCheckReport {
  const text =
    typeof reply === 'string'
      ? reply
      : typeof reply === 'object' &&
          reply !== null &&
          typeof (reply as { text?: unknown }).text === 'string'
        ? (reply as { text: string }).text
        : undefined;
  const rawTokens =
    typeof reply === 'object' && reply !== null
      ? (reply as { tokens?: unknown }).tokens
      : undefined;
  const tokens =
    typeof rawTokens === 'number' && Number.isFinite(rawTokens) ? rawTokens : undefined;
  const base = {
    durationMs,
    ...(text === undefined ? {} : { reply: text.slice(0, 200) }),
    ...(tokens === undefined ? {} : { tokens }),
  };
  if (tokens !== undefined && tokens > maxTokens) {
    return {
      ...base,
      status: 'over_budget',
      message: `the model check used ${tokens} output tokens, over its cap of ${maxTokens}`,
    };
  }
  const answer = text === undefined ? undefined : answerOf(text);
  if (!answer) {
    return {
      ...base,
      status: 'garbage',
      message: `the model check's reply is not "simple" or "complex": ${JSON.stringify(base.reply ?? null)}`,
    };
  }
  return { ...base, status: 'answered', answer, message: `the model check answered ${answer}` };
}

/** `simple` or `complex` when the reply is short and names exactly one of them. */
function answerOf(text: string): 'simple' | 'complex' | undefined {
  if (text.length > 40) return undefined;
  const words = new Set(text.toLowerCase().match(/[a-z]+/g) ?? []);
  if (words.has('simple') === words.has('complex')) return undefined;
  return words.has('simple') ? 'simple' : 'complex';
}
