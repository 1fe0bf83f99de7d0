import { type CheckpointStore, isCheckpointError } from 'loopchart';
import { oddValue, type StoreFault } from './faults.js';
import type { Ledger } from './ledger.js';

/** What a faulty store did, for the time budget and the checks of what a run reported. */
export interface StoreFaultLog {
  /** Calls that never answered, and of those the loads (bounded by the whole deadline each). */
  hangs: number;
  loadHangs: number;
  /** Calls that answered late, and the simulated ms they kept the run waiting. */
  lateCalls: number;
  lateMs: number;
  /** How late each late load answered: one later than the deadline and its grace times out as a hang. */
  lateLoadsMs: number[];
  /** Values thrown by the store (an error a host sees may carry one as its cause). */
  thrown: unknown[];
}

/**
 * Loopchart's view of a store that misbehaves at generated calls: the `at`th save or load (of
 * this view, across every process of a run) never answers, answers `lateMs` late (a simulated
 * wait before the call goes through), or throws (an Error, or an odd value). Every other call
 * goes straight through.
 */
export function faultyStore(
  store: CheckpointStore,
  faults: readonly StoreFault[],
  ledger: Ledger,
): CheckpointStore {
  const calls = { save: 0, load: 0 };
  const log = ledger.store;
  const around =
    <A extends unknown[], R>(op: 'save' | 'load', call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const n = ++calls[op];
      const fault = faults.find((f) => f.op === op && f.at === n);
      switch (fault?.kind) {
        case 'hang':
          log.hangs += 1;
          if (op === 'load') log.loadHangs += 1;
          return new Promise<R>(() => {});
        case 'late':
          log.lateCalls += 1;
          log.lateMs += fault.lateMs;
          if (op === 'load') log.lateLoadsMs.push(fault.lateMs);
          await new Promise((resolve) => setTimeout(resolve, fault.lateMs));
          return call(...args);
        case 'throw': {
          const error = new Error(`the store is down (${op} #${n})`);
          log.thrown.push(error);
          throw error;
        }
        case 'throwOdd': {
          const odd = oddValue(n);
          log.thrown.push(odd);
          throw odd;
        }
        default:
          return call(...args);
      }
    };
  return {
    save: around('save', (record) => store.save(record)),
    load: around('load', (id) => store.load(id)),
    list: (options) => store.list(options),
    delete: (id) => store.delete(id),
  };
}

/**
 * True when `error` is, or was caused by, a value the faulty store threw. (A save that fails with
 * a value whose every trap throws is reported by the error reading it threw: any `save_failed`
 * once the store has thrown counts.)
 */
export function fromStoreFault(error: unknown, log: StoreFaultLog): boolean {
  if (log.thrown.includes(error)) return true;
  if (!isCheckpointError(error)) return false;
  return (
    log.thrown.includes(error.cause) || (error.code === 'save_failed' && log.thrown.length > 0)
  );
}
