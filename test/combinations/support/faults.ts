/**
 * The outside world's bad luck, generated beside every other dimension of a combination (issue
 * 29): a store whose save or load, at generated calls, never answers, answers late or throws
 * (an odd value at times); a wall clock that jumps back 10 minutes or forward an hour mid-run; a
 * stored row edited by hand before a resume; answer schemas that never answer. Steps that return
 * `undefined` or throw odd values are moves of their own (combination.ts).
 */
import fc from 'fast-check';

export const STORE_FAULTS = ['hang', 'late', 'throw', 'throwOdd'] as const;
export const ROW_EDITS = [
  'retryCount',
  'emptyContext',
  'unknownState',
  'rationale',
  'negativeBound',
  'truncated',
  'notObject',
  'inflatedBounds',
] as const;
export const SCHEMA_FAULTS = ['none', 'checks', 'hang'] as const;

export type RowEditKind = (typeof ROW_EDITS)[number];

/** One store call that misbehaves: the `at`th save or load (1-based) of loopchart's view. */
export interface StoreFault {
  op: 'save' | 'load';
  at: number;
  kind: (typeof STORE_FAULTS)[number];
  /** How late a `late` call answers, in simulated ms. */
  lateMs: number;
}

export interface Faults {
  store: StoreFault[];
  /** The wall clock (`Date`) set back or forward at `atMs` of simulated time into the run. */
  clockJump: null | { atMs: number; byMs: number };
  /** A row edited by hand before the `beforeCall`th call into loopchart (2 = the first resume). */
  rowEdit: null | { kind: RowEditKind; beforeCall: number };
  /** The config's answer schemas: none, ones that pass the harness's answers, or ones that hang. */
  schemas: (typeof SCHEMA_FAULTS)[number];
}

export const NO_FAULTS: Faults = { store: [], clockJump: null, rowEdit: null, schemas: 'none' };

const storeFault: fc.Arbitrary<StoreFault> = fc.record({
  op: fc.constantFrom('save' as const, 'save' as const, 'load' as const),
  at: fc.integer({ min: 1, max: 6 }),
  kind: fc.constantFrom(...STORE_FAULTS),
  lateMs: fc.constantFrom(1, 20, 700),
});

export const faultsArbitrary: fc.Arbitrary<Faults> = fc.record({
  store: fc.oneof(
    { weight: 3, arbitrary: fc.constant<StoreFault[]>([]) },
    { weight: 2, arbitrary: fc.array(storeFault, { minLength: 1, maxLength: 2 }) },
  ),
  clockJump: fc.option(
    fc.record({
      atMs: fc.integer({ min: 0, max: 40 }),
      byMs: fc.constantFrom(-600_000, 3_600_000),
    }),
    { nil: null, freq: 3 },
  ),
  rowEdit: fc.option(
    fc.record({ kind: fc.constantFrom(...ROW_EDITS), beforeCall: fc.integer({ min: 2, max: 4 }) }),
    { nil: null, freq: 2 },
  ),
  schemas: fc.constantFrom(...SCHEMA_FAULTS),
});

/** True when a fault can only be ended by the run's deadline (a hung store call or schema). */
export function needsDeadline(faults: Faults): boolean {
  return faults.schemas === 'hang' || faults.store.some((fault) => fault.kind === 'hang');
}

/**
 * Odd values a step (or a store) throws or rejects with: not Errors, a getter that throws, a
 * proxy every trap of which throws, a thenable. Picked by a call's number.
 */
export function oddValue(n: number): unknown {
  const values: (() => unknown)[] = [
    () => null,
    () => undefined,
    () => 'a bare string',
    () => 42,
    () => Symbol('odd'),
    () =>
      Object.defineProperty({}, 'message', {
        get() {
          throw new Error('no message for you');
        },
      }),
    () =>
      new Proxy(
        {},
        {
          get: () => {
            throw new Error('hostile proxy trap');
          },
          ownKeys: () => {
            throw new Error('hostile proxy trap');
          },
          getPrototypeOf: () => {
            throw new Error('hostile proxy trap');
          },
        },
      ),
    // biome-ignore lint/suspicious/noThenProperty: a thenable is one of the odd values thrown
    () => ({ then: (resolve: (v: unknown) => void) => resolve('a thenable') }),
  ];
  return (values[Math.abs(n) % values.length] as () => unknown)();
}
