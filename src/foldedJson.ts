const MAX_DEPTH = 64;
const MAX_NODES = 200_000;

interface Walk {
  /** The objects being written, outermost first: a value met again among them is a cycle. */
  path: object[];
  nodes: number;
}

/**
 * A one-pass JSON text of any value for progress fingerprints: keys sorted, string values
 * whitespace-collapsed and lower-cased, and total on untrusted data (cycles, throwing getters,
 * exotic values become markers). Not RFC 8785: reproducibility keys use `toCanonicalJson`.
 * @example foldedJson({ b: 'Hello  World', a: 1 }) // '{"a":1,"b":"hello world"}'
 */
export function foldedJson(value: unknown): string {
  return write(value, { path: [], nodes: 0 }, 0) ?? 'null';
}

// `undefined` means "no JSON value": omitted in objects, null in arrays.
function write(value: unknown, walk: Walk, depth: number): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(fold(value));
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
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
    if (Array.isArray(value)) return writeList(Array.from(value), walk, depth);
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

function writeList(items: readonly unknown[], walk: Walk, depth: number): string {
  let out = '[';
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out += ',';
    out += write(items[i], walk, depth + 1) ?? 'null';
  }
  return `${out}]`;
}

function writeRecord(record: Record<string, unknown>, walk: Walk, depth: number): string {
  const members = new Map<string, string>();
  for (const key of Object.keys(record)) {
    const item = write(record[key], walk, depth + 1);
    if (item !== undefined) members.set(key.toWellFormed(), item);
  }
  const names = [...members.keys()].sort();
  return `{${names.map((name) => `${JSON.stringify(name)}:${members.get(name)}`).join(',')}}`;
}

const NEEDS_COLLAPSE = /\s{2,}|[^\S ]/;

function fold(value: string): string {
  const text = value.toWellFormed();
  return (NEEDS_COLLAPSE.test(text) ? text.replace(/\s+/g, ' ') : text).trim().toLowerCase();
}
