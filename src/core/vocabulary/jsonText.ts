const MAX_DEPTH = 64;
const MAX_NODES = 200_000;

interface Walk {
  /** Writes a string value (already well-formed) as JSON. */
  text: (value: string) => string;
  /** The objects being written, outermost first: a value met again among them is a cycle. */
  path: object[];
  nodes: number;
}

/**
 * RFC 8785 canonical JSON of any value (keys sorted by UTF-16 code units, numbers and strings as
 * `JSON.stringify` writes them), total and safe on untrusted data: cycles, throwing getters,
 * non-finite numbers, lone surrogates and exotic values become markers instead of errors, and keys
 * such as `__proto__` stay plain data. Reproducibility keys hash it.
 * @example toCanonicalJson({ b: 1, a: [2, undefined] }) // '{"a":[2,null],"b":1}'
 */
export function toCanonicalJson(value: unknown): string {
  return jsonText(value, JSON.stringify);
}

/**
 * The canonical JSON of a value with every string value whitespace-collapsed and lower-cased: what
 * progress fingerprints hash, so cosmetic changes do not count as progress.
 * @example foldedJson({ b: 'Hello  World', a: 1 }) // '{"a":1,"b":"hello world"}'
 */
export function foldedJson(value: unknown): string {
  return jsonText(value, (text) => JSON.stringify(fold(text)));
}

function jsonText(value: unknown, text: (value: string) => string): string {
  return write(value, { text, path: [], nodes: 0 }, 0) ?? 'null';
}

// `undefined` means "no JSON value": omitted in objects, null in arrays.
function write(value: unknown, walk: Walk, depth: number): string | undefined {
  switch (typeof value) {
    case 'string':
      return walk.text(value.toWellFormed());
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return JSON.stringify(`${value}n`);
    case 'object':
      return value === null ? 'null' : writeObject(value, walk, depth);
    default:
      return undefined;
  }
}

function writeObject(value: object, walk: Walk, depth: number): string | undefined {
  if (walk.path.includes(value)) return '"[Circular]"';
  if (depth >= MAX_DEPTH) return '"[Deep]"';
  if (++walk.nodes > MAX_NODES) return '"[Truncated]"';
  walk.path.push(value);
  try {
    if (Array.isArray(value)) return writeList(value, walk, depth);
    if (value instanceof Map) return writeList([...value.entries()], walk, depth);
    if (value instanceof Set) return writeList([...value], walk, depth);
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return write(toJSON.call(value), walk, depth + 1);
    return writeRecord(value as Record<string, unknown>, walk, depth);
  } catch {
    return '"[Unreadable]"';
  } finally {
    walk.path.pop();
  }
}

// Indexing, not iterating, so the holes of a sparse array are written as null.
function writeList(items: readonly unknown[], walk: Walk, depth: number): string {
  let out = '[';
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out += ',';
    out += write(items[i], walk, depth + 1) ?? 'null';
  }
  return `${out}]`;
}

function writeRecord(record: Record<string, unknown>, walk: Walk, depth: number): string {
  const keys = Object.keys(record);
  if (!keys.every((key) => key.isWellFormed())) return writeOddRecord(record, keys, walk, depth);
  sortKeys(keys);
  let out = '';
  for (const key of keys) {
    const item = write(record[key], walk, depth + 1);
    if (item !== undefined) out += `${out ? ',' : ''}${JSON.stringify(key)}:${item}`;
  }
  return `{${out}}`;
}

// What `keys.sort()` gives (UTF-16 code unit order; keys are distinct), without the work arrays
// Array.prototype.sort allocates each call: most records hashed have a handful of keys.
function sortKeys(keys: string[]): void {
  if (keys.length > 16) {
    keys.sort();
    return;
  }
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i] as string;
    let j = i - 1;
    for (; j >= 0 && (keys[j] as string) > key; j--) keys[j + 1] = keys[j] as string;
    keys[j + 1] = key;
  }
}

// Keys with lone surrogates: made well-formed before sorting, and two that become one keep the
// later value, as assigning them in order would.
function writeOddRecord(
  record: Record<string, unknown>,
  keys: string[],
  walk: Walk,
  depth: number,
) {
  const members = new Map<string, string>();
  for (const key of keys) {
    const item = write(record[key], walk, depth + 1);
    if (item !== undefined) members.set(key.toWellFormed(), item);
  }
  const names = [...members.keys()].sort();
  return `{${names.map((name) => `${JSON.stringify(name)}:${members.get(name)}`).join(',')}}`;
}

const NEEDS_COLLAPSE = /\s{2,}|[^\S ]/;

function fold(value: string): string {
  return (NEEDS_COLLAPSE.test(value) ? value.replace(/\s+/g, ' ') : value).trim().toLowerCase();
}
