import canonicalize from 'canonicalize';

const MAX_DEPTH = 64;
const MAX_NODES = 200_000;

interface Walk {
  seen: Set<object>;
  nodes: number;
}

/**
 * RFC 8785 canonical JSON of any value, total and safe on untrusted data: cycles, throwing getters,
 * non-finite numbers, lone surrogates and exotic values become markers instead of errors, and keys
 * such as `__proto__` stay plain data.
 */
export function toCanonicalJson(value: unknown): string {
  return canonicalize(toPlain(value, { seen: new Set(), nodes: 0 }, 0)) ?? 'null';
}

function toPlain(value: unknown, walk: Walk, depth: number): unknown {
  switch (typeof value) {
    case 'string':
      return value.toWellFormed();
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'boolean':
      return value;
    case 'bigint':
      return `${value}n`;
    case 'object':
      return value === null ? null : objectToPlain(value, walk, depth);
    default:
      return undefined;
  }
}

function objectToPlain(value: object, walk: Walk, depth: number): unknown {
  if (walk.seen.has(value)) return '[Circular]';
  if (depth >= MAX_DEPTH) return '[Deep]';
  if (++walk.nodes > MAX_NODES) return '[Truncated]';
  walk.seen.add(value);
  try {
    const next = (item: unknown) => toPlain(item, walk, depth + 1);
    // Array.from visits holes (map skips them, which would write an invalid `[,1]`)
    if (Array.isArray(value)) return Array.from(value, (item) => next(item) ?? null);
    if (value instanceof Map)
      return [...value.entries()].map(([k, v]) => [next(k), next(v) ?? null]);
    if (value instanceof Set) return [...value].map((item) => next(item) ?? null);
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return next(toJSON.call(value));
    const plain: Record<string, unknown> = Object.create(null);
    for (const key of Object.keys(value)) {
      const item = next((value as Record<string, unknown>)[key]);
      if (item !== undefined) plain[key.toWellFormed()] = item;
    }
    return plain;
  } catch {
    return '[Unreadable]';
  } finally {
    walk.seen.delete(value);
  }
}
