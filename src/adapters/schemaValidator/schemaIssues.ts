import type { z } from 'zod';

/** One problem with a candidate, JSON-safe: where (`at`, e.g. `items[0].price`), what and why. */
export interface SchemaIssue {
  /** zod's issue code, or `no_json` / `invalid_json` when the reply holds no parseable JSON. */
  code: string;
  path: (string | number)[];
  /** The path written out: `items[0].price`, or `(root)`. */
  at: string;
  message: string;
}

const MAX_MESSAGE = 240;
const MAX_ALTERNATIVES = 3;

/** The path as a reader (or a model) would write it; odd keys are quoted, so they stay data. */
export function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  return path
    .map((segment, index) => {
      if (typeof segment === 'number') return `[${segment}]`;
      if (typeof segment === 'string' && /^[A-Za-z_$][\w$]*$/.test(segment)) {
        return index === 0 ? segment : `.${segment}`;
      }
      return `[${clean(JSON.stringify(String(segment)))}]`;
    })
    .join('');
}

/** zod's issues as `SchemaIssue`s; union failures list what each alternative wanted. */
export function toSchemaIssues(issues: readonly z.core.$ZodIssue[]): SchemaIssue[] {
  return issues.map((issue) => {
    const path = issue.path.map((s) => (typeof s === 'number' ? s : String(s)));
    return { code: issue.code, path, at: formatPath(issue.path), message: describe(issue) };
  });
}

/** The feedback for schema issues: how many, then one `- path: message` line each (up to `max`). */
export function describeIssues(issues: readonly SchemaIssue[], max = 10): string {
  const lines = issues.slice(0, max).map((issue) => `- ${issue.at}: ${issue.message}`);
  const more = issues.length - lines.length;
  if (more > 0) lines.push(`- …and ${more} more`);
  const count = `${issues.length} issue${issues.length === 1 ? '' : 's'}`;
  return `The JSON does not match the schema (${count}):\n${lines.join('\n')}`;
}

export function parseIssue(code: 'no_json' | 'invalid_json', message: string): SchemaIssue {
  return { code, path: [], at: '(root)', message: clean(message) };
}

function describe(issue: z.core.$ZodIssue): string {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return clean(issue.message);
  const alternatives = issue.errors.slice(0, MAX_ALTERNATIVES).map((branch, index) => {
    const first = branch[0];
    if (!first) return `(${index + 1}) ok`;
    const where = first.path.length > 0 ? `${formatPath(first.path)}: ` : '';
    return `(${index + 1}) ${where}${first.message}`;
  });
  return clean(`${issue.message}; it must match one of: ${alternatives.join('; ')}`);
}

/** One line, bounded: text from the candidate can never start a new line of feedback. */
export function clean(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we remove
  const line = text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
  return line.length > MAX_MESSAGE ? `${line.slice(0, MAX_MESSAGE - 1)}…` : line;
}
