/** The JSON-safe facts of a thrown failure, bounded in size: never the live object. */
export interface FailureFacts {
  /** The HTTP status (`status` or `statusCode` of the error). */
  status?: number;
  /** The error's `code` (`ECONNRESET`, `rate_limit_exceeded`, …). */
  code?: string;
  /** Only the headers that say when to retry or how much quota is left (`retry-after`, `x-ratelimit-*`). */
  headers?: Record<string, string>;
  /** Token counts the failed call reported (`usage` of the error), numbers only. */
  usage?: Record<string, number>;
}

const MAX_TEXT = 200;
const MAX_ENTRIES = 12;
const KEPT_HEADER = /^(retry-after(-ms)?|x-ratelimit-[\w-]+|ratelimit(-[\w-]+)?|x-request-id)$/;

/**
 * Reads the facts of a thrown value (its own fields, else those of `lastError` or `cause`, one
 * level deep). Never throws: a getter that throws only hides the fact it guards.
 */
export function failureFacts(error: unknown): FailureFacts | undefined {
  const own = factsOf(error);
  if (own) return own;
  return factsOf(read(error, 'lastError')) ?? factsOf(read(error, 'cause'));
}

function factsOf(error: unknown): FailureFacts | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const facts: FailureFacts = {};
  const status = read(error, 'statusCode') ?? read(error, 'status');
  if (Number.isInteger(status) && (status as number) >= 100 && (status as number) < 600) {
    facts.status = status as number;
  }
  const code = read(error, 'code');
  if (typeof code === 'string' || typeof code === 'number') facts.code = clip(String(code));
  const headers = retryHeaders(read(error, 'responseHeaders') ?? read(error, 'headers'));
  if (headers) facts.headers = headers;
  const usage = numbersOf(read(error, 'usage'));
  if (usage) facts.usage = usage;
  return Object.keys(facts).length > 0 ? facts : undefined;
}

function retryHeaders(headers: unknown): Record<string, string> | undefined {
  if (typeof headers !== 'object' || headers === null) return undefined;
  const kept: Record<string, string> = {};
  let count = 0;
  for (const [name, value] of entriesOf(headers)) {
    const key = name.toLowerCase();
    if (!KEPT_HEADER.test(key) || (typeof value !== 'string' && typeof value !== 'number'))
      continue;
    kept[key] = clip(String(value));
    if (++count >= MAX_ENTRIES) break;
  }
  return count > 0 ? kept : undefined;
}

function numbersOf(usage: unknown): Record<string, number> | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined;
  const kept: Record<string, number> = {};
  let count = 0;
  for (const [name, value] of entriesOf(usage)) {
    if (typeof value !== 'number' || !Number.isFinite(value)) continue;
    kept[clip(name)] = value;
    if (++count >= MAX_ENTRIES) break;
  }
  return count > 0 ? kept : undefined;
}

/** Own entries of a plain object, or of a `Headers`-like object with `forEach`. */
function entriesOf(value: object): [string, unknown][] {
  try {
    const forEach = (value as { forEach?: unknown }).forEach;
    if (typeof forEach === 'function' && !Array.isArray(value)) {
      const entries: [string, unknown][] = [];
      forEach.call(value, (v: unknown, k: unknown) => {
        if (typeof k === 'string' && entries.length < 100) entries.push([k, v]);
      });
      return entries;
    }
    return Object.keys(value)
      .slice(0, 100)
      .map((key) => [key, read(value, key)]);
  } catch {
    return [];
  }
}

function read(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

function clip(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text;
}
