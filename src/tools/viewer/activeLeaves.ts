/** Root state changes a run view keeps (the newest), for the path drawn on its chart. */
export const MAX_STEPS = 1000;

/**
 * The active leaf states of a state value as dot paths: `'attempting'` → `['attempting']`,
 * `{ red: 'walk', audio: 'on' }` → `['red.walk', 'audio.on']`. Untrusted input: bounded in depth
 * and count, anything else gives no leaves.
 * @example activeLeaves({ red: 'walk' }) // ['red.walk']
 */
export function activeLeaves(value: unknown, prefix = '', depth = 0): string[] {
  if (typeof value === 'string') return [`${prefix}${value}`.slice(0, 400)];
  if (typeof value !== 'object' || value === null || Array.isArray(value) || depth > 16) return [];
  const leaves: string[] = [];
  for (const [key, inner] of Object.entries(value).slice(0, 64)) {
    const below = activeLeaves(inner, `${prefix}${key}.`, depth + 1);
    leaves.push(...(below.length > 0 ? below : [`${prefix}${key}`.slice(0, 400)]));
  }
  return leaves;
}

/** `steps` with `leaves` appended when they differ from the last entry, newest `MAX_STEPS` kept. */
export function appendStep(steps: readonly string[][] = [], leaves: string[]): string[][] {
  const last = steps.at(-1);
  if (leaves.length === 0 || (last && last.join('\n') === leaves.join('\n'))) return [...steps];
  return [...steps, leaves].slice(-MAX_STEPS);
}
