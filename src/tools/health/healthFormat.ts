/** `part` as a share of `whole`, 0 when `whole` is 0. */
export const shareOf = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);

/** A share as people read it: `27%`, `0.4%` under one percent, `0%` for none. */
export const percent = (share: number) =>
  `${(share * 100).toFixed(share > 0 && share < 0.01 ? 1 : 0)}%`;

/** `part` of `whole` as a percentage (`percent(shareOf(part, whole))`). */
export const percentOf = (part: number, whole: number) => percent(shareOf(part, whole));

/** A count or a mean: integers as they are, anything else to two decimals. */
export const amount = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));
