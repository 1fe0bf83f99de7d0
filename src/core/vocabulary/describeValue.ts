/** A short, never-throwing description of an untrusted value for error messages and rationales. */
export function describeValue(value: unknown, maxLength = 80): string {
  let text: string;
  try {
    if (value === undefined) text = 'undefined';
    else if (typeof value === 'function') text = 'a function';
    else if (typeof value === 'symbol' || typeof value === 'bigint') text = String(value);
    else text = JSON.stringify(value) ?? String(value);
  } catch {
    text = Array.isArray(value) ? 'an array' : `a value of type ${typeof value}`;
  }
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}
