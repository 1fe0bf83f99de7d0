/** How deep `toJsonSafe` copies before it writes `'[depth limit]'`. */
export const JSON_DEPTH_LIMIT = 40;

/**
 * A JSON-safe copy of any value: `toJSON()` honoured, errors as `{ name, message }`, bigints as
 * strings, functions as `{ type: name }` (the way `@statelyai/inspect` shows them), cycles and
 * getters that throw as placeholders, and nothing deeper than `JSON_DEPTH_LIMIT`.
 * @example JSON.stringify(toJsonSafe(snapshot)) // never throws
 */
export function toJsonSafe(value: unknown, depth = 0, parents: unknown[] = []): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'function') return { type: value.name || 'anonymous' };
  if (typeof value !== 'object') return undefined;
  if (parents.includes(value)) return '[circular]';
  if (depth >= JSON_DEPTH_LIMIT) return '[depth limit]';
  const inner = [...parents, value];
  try {
    if (value instanceof Error) return { name: value.name, message: value.message };
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') {
      return toJsonSafe(toJSON.call(value), depth + 1, inner);
    }
    if (Array.isArray(value))
      return value.map((item) => toJsonSafe(item, depth + 1, inner) ?? null);
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const item = toJsonSafe((value as Record<string, unknown>)[key], depth + 1, inner);
      if (item === undefined) continue;
      // an own `__proto__` key stays data (assigning it would set the copy's prototype)
      if (key === '__proto__') {
        Object.defineProperty(copy, key, {
          value: item,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      } else copy[key] = item;
    }
    return copy;
  } catch {
    return '[unreadable]';
  }
}
