const UNITS: Record<string, number> = {
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/**
 * A point in time from the command line: a duration back from `now` (`90s`, `30m`, `24h`, `7d`,
 * `2w`) or an ISO date (`2026-12-01`, `2026-12-01T09:00Z`). Anything else returns the reason.
 * @example parseWhen('24h', Date.now()); // a day ago, in ms since the epoch
 */
export function parseWhen(text: string, now: number): number | string {
  const relative = /^(\d+(?:\.\d+)?)([smhdw])$/.exec(text.trim());
  if (relative) return now - Number(relative[1]) * (UNITS[relative[2] ?? 's'] ?? 0);
  if (/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text.trim())) {
    const at = Date.parse(text.trim());
    if (Number.isFinite(at)) return at;
  }
  return `must be a duration back from now (90s, 30m, 24h, 7d, 2w) or an ISO date (2026-12-01, 2026-12-01T09:00Z), got '${text}'`;
}
