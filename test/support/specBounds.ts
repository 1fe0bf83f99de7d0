/**
 * SPEC §4's bounds of a config, worked out from the spec's defaults rather than read from the
 * library's resolver: maxRetries defaults to 3, maxAttempts to 2 × (maxRetries + 1) within its
 * range 1–100.
 */
export function specBounds(config: { maxRetries?: number; maxAttempts?: number }) {
  const maxRetries = config.maxRetries ?? 3;
  return { maxRetries, maxAttempts: config.maxAttempts ?? Math.min(100, 2 * (maxRetries + 1)) };
}
