/** Another refine cycle fits in the retry budget. */
export function hasRetriesLeft(retryCount: number, maxRetries: number): boolean {
  return retryCount < maxRetries;
}

/** Another attempt invocation fits under the hard ceiling. */
export function withinCeiling(attempts: number, maxAttempts: number): boolean {
  return attempts < maxAttempts;
}

/** The summed cost has not reached the budget (no budget means always within). */
export function withinCostBudget(cost: number, maxCost: number | null): boolean {
  return maxCost === null || cost < maxCost;
}

/** The same fingerprint came back `after` times in a row. */
export function isStalled(repeats: number, after: number | null): boolean {
  return after !== null && repeats >= after;
}
