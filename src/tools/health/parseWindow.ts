import { parseWhen } from './parseWhen.js';

/** Which runs a health report (or a run list) covers, in ms since the epoch. */
export interface RunWindow {
  since?: number;
  until?: number;
}

/**
 * `since` and `until` as a caller wrote them (`24h`, `7d`, an ISO date; see `parseWhen`), read
 * against one `now`. For the first that does not parse it returns the reason, naming it
 * `${prefix}since` (the CLI passes `--`). An absent text leaves its end open.
 * @example parseWindow({ since: '24h' }, Date.now()); // { since: a day ago }
 */
export function parseWindow(
  texts: { since?: string | undefined; until?: string | undefined },
  now: number,
  prefix = '',
): RunWindow | string {
  const window: RunWindow = {};
  for (const key of ['since', 'until'] as const) {
    const text = texts[key];
    if (text === undefined) continue;
    const at = parseWhen(text, now);
    if (typeof at === 'string') return `${prefix}${key} ${at}`;
    window[key] = at;
  }
  return window;
}
