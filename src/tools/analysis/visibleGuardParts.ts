import { sourceOf } from './actionEffects.js';
import { compositeKind } from './describeGuard.js';

/** A part a guard needs to hold, read from a function that reads nothing but context. */
export interface GuardPart {
  /** The context keys it reads. */
  keys: string[];
  /** Runs it on a context holding those keys; true when it holds, or when running it throws. */
  holds: (context: Readonly<Record<string, unknown>>) => boolean;
}

type Composite = { guards: unknown[] };

// `({ context }) =>`, `function name({ context }) {`, a method `name({ context }) {`, or `() =>`.
const HEAD =
  /^\s*(?:async\s+)?(?:function\b[\s*]*[\w$]*\s*|[\w$]+\s*)?\(\s*(?:\{\s*context\s*\})?\s*\)\s*(?:=>)?/;
const STRINGS = /'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"/g;
const WORDS = /(?<![\w$.])[A-Za-z_$][\w$]*/g;
const READS = /(?<![\w$.])context\s*\??\.\s*([A-Za-z_$][\w$]*)/g;
const PLAIN = new Set([
  'context',
  'return',
  'null',
  'undefined',
  'true',
  'false',
  'typeof',
  'void',
]);
const MAX_DEPTH = 32;

/**
 * The parts of a guard that must all hold (the guard itself, or each part of an `and(...)`), kept
 * only where its source can be read through: a plain function whose body names nothing but
 * `context.<key>`, literals and operators. Any other guard yields no part (its reads are unseen).
 * @example visibleGuardParts(({ context }) => context.n !== null, {}) // [{ keys: ['n'], holds }]
 */
export function visibleGuardParts(
  guard: unknown,
  guards: Readonly<Record<string, unknown>>,
  depth = 0,
): GuardPart[] {
  if (depth > MAX_DEPTH) return [];
  const name = typeof guard === 'string' ? guard : (guard as { type?: unknown } | null)?.type;
  const impl = typeof guard === 'function' ? guard : guards[String(name)];
  if (typeof impl !== 'function') return [];
  const kind = compositeKind(impl);
  if (kind === 'and')
    return (impl as unknown as Composite).guards.flatMap((part) =>
      visibleGuardParts(part, guards, depth + 1),
    );
  if (kind) return [];
  const keys = readsOnlyContext(sourceOf(impl));
  if (!keys) return [];
  const holds = (context: Readonly<Record<string, unknown>>) => {
    try {
      return Boolean(impl({ context, event: { type: '' } }, undefined));
    } catch {
      return true;
    }
  };
  return [{ keys, holds }];
}

/** The context keys a function's source reads (`context.<key>`), read or not through anything else. */
export function contextReads(source: string): string[] {
  return [...new Set([...source.matchAll(READS)].map((m) => m[1] as string))];
}

function readsOnlyContext(source: string): string[] | undefined {
  const head = HEAD.exec(source);
  if (!head) return undefined;
  const body = source.slice(head[0].length).replace(STRINGS, '0');
  if (body.includes('`') || body.includes('=>') || body.includes('/')) return undefined;
  const words = [...body.matchAll(WORDS)].map((m) => m[0]);
  if (words.some((word) => !PLAIN.has(word))) return undefined;
  const keys = contextReads(body);
  const uses = words.filter((word) => word === 'context').length;
  return [...body.matchAll(READS)].length === uses ? keys : undefined;
}
