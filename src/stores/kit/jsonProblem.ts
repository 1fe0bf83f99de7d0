/**
 * Which field of a run's context cannot be stored as JSON, and why (a cycle, nesting too deep, a
 * BigInt), for a checkpoint that failed to encode; `undefined` when every field encodes. The
 * ledger's fields are named as its own.
 * @example jsonProblem({ candidate: cyclic }) // "candidate is not JSON (Converting circular structure …)"
 */
export function jsonProblem(context: Record<string, unknown>): string | undefined {
  const { ledger, ...fields } = context;
  const all = { ...fields, ...(typeof ledger === 'object' && ledger !== null ? ledger : {}) };
  for (const [key, value] of Object.entries(all)) {
    try {
      JSON.stringify(value);
    } catch (error) {
      const why =
        error instanceof RangeError
          ? 'it is nested too deeply, or circular'
          : String(error instanceof Error ? error.message : error).replace(/\s+/g, ' ');
      return `${key} is not JSON (${why.slice(0, 300)})`;
    }
  }
  return undefined;
}
