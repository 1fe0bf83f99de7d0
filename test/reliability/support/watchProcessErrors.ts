import { afterAll, beforeAll } from 'vitest';

/**
 * Records every `unhandledRejection` and `uncaughtException` while a suite runs. The returned list
 * is live: assert it is empty after each run and once more after late settlements had time to land.
 */
export function watchProcessErrors(): string[] {
  const seen: string[] = [];
  const onRejection = (reason: unknown) => seen.push(`unhandledRejection: ${describe(reason)}`);
  const onException = (error: unknown) => seen.push(`uncaughtException: ${describe(error)}`);
  beforeAll(() => {
    process.on('unhandledRejection', onRejection);
    process.on('uncaughtException', onException);
  });
  afterAll(() => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  });
  return seen;
}

function describe(value: unknown): string {
  try {
    return value instanceof Error ? `${value.name}: ${value.message}` : String(value);
  } catch {
    return 'an unreadable value';
  }
}

/** Resolves after pending microtasks, timers of `ms` and the unhandled-rejection check have run. */
export function settle(ms?: number): Promise<void> {
  if (ms === undefined) return new Promise((resolve) => setImmediate(resolve));
  return new Promise((resolve) => setTimeout(() => setImmediate(resolve), ms));
}
