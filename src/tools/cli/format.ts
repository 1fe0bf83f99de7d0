/** A duration for people: `0.4 ms`, `12 ms`, `1.8 s`. */
export function formatMs(ms: number): string {
  if (ms < 10 && !Number.isInteger(ms)) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

/** Cuts `text` to one line of at most `max` characters. */
export function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** `1 attempt`, `3 attempts`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
