/**
 * A key that names a config's plain options exactly, for configs simple enough to key: a plain
 * object whose fields are functions (those in `functions`) or plain options (those in `plain`)
 * holding finite numbers, strings, booleans, null, or flat plain objects of those. Two configs
 * with one key parse alike, so their resolved settings can be reused. `undefined` for any other
 * config (it is parsed in full).
 */
export function plainOptionsKey(
  config: object,
  plain: ReadonlySet<string>,
  functions: ReadonlySet<string>,
): string | undefined {
  if (Object.getPrototypeOf(config) !== Object.prototype) return undefined;
  let key = '';
  for (const name of Object.keys(config)) {
    const value = (config as Record<string, unknown>)[name];
    if (functions.has(name)) {
      if (typeof value !== 'function') return undefined;
      key += `${name};`;
      continue;
    }
    if (!plain.has(name)) return undefined;
    const text = flatValue(value);
    if (text === undefined) return undefined;
    key += `${name}=${text};`;
  }
  return key;
}

function flatValue(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return scalar(value);
  if (Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  let text = '{';
  for (const name of Object.keys(value)) {
    const item = scalar((value as Record<string, unknown>)[name]);
    if (item === undefined) return undefined;
    text += `${JSON.stringify(name)}:${item},`;
  }
  return `${text}}`;
}

// -0, NaN and ±Infinity are left to the full parse, which tells them apart
function scalar(value: unknown): string | undefined {
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0) ? `${value}` : undefined;
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      return value === null ? 'null' : undefined;
  }
}
