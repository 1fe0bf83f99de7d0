/** What bench/main.ts hands every section. */
export interface BenchContext {
  /** True with `npm run bench -- --quick`: fewer rounds and loops, for a smoke run. */
  readonly quick: boolean;
  /** Prints a progress line to stderr; stdout holds only the tables. */
  log(message: string): void;
  /** Runs full garbage collections until the heap settles and returns `heapUsed` in bytes. */
  settledHeap(): Promise<number>;
}

/** A section's figures: JSON-safe. Arrays of flat rows print as tables, other values as `key: value`. */
export type BenchFigures = Record<string, unknown>;

/**
 * One part of `npm run bench`. A module in bench/sections exports `section: BenchSection` and is
 * registered with one line in bench/sections/index.ts; bench/main.ts runs them all, prints their
 * figures and writes them to bench/results.json under `name`.
 * @example export const section: BenchSection = { name: 'paths', title: 'Path enumeration',
 *            run: async (ctx) => ({ rows: [{ machine: 'loop', paths: 42, ms: 3.1 }] }) };
 */
export interface BenchSection {
  /** Key in bench/results.json, and what `npm run bench -- <name>` selects. */
  readonly name: string;
  /** The heading printed over the section's figures. */
  readonly title: string;
  run(ctx: BenchContext): Promise<BenchFigures>;
}
