/**
 * Child process of load.test.ts: `node --expose-gc loadChild.mjs <compiled library>/entries/index.js <loops>`.
 * Runs <loops> loops at once (a mix that refines, falls back, retries, times out, stalls and is
 * aborted while long timers are pending) twice, takes a settled heap after each batch, and prints
 * one JSON line of figures. It then does nothing: it must exit by itself.
 */
import { writeSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { settledHeap } from './settledHeap.mjs';

const [libraryPath, loopsArg = '10000'] = process.argv.slice(2);
const { runLoop, transientFailure, withCost, emptyResult } = await import(
  pathToFileURL(libraryPath).href
);

const never = () => new Promise(() => {});
const correctable = (message) => ({ valid: false, error: { severity: 'correctable', message } });
const valid = { valid: true };

/** The mix: one config object per kind, passed to runLoop for every run (as a server would). */
const kinds = [
  // proceeds after two refine cycles
  { validate: (_, ctx) => (ctx.attempt < 3 ? correctable(`fix ${ctx.attempt}`) : valid) },
  // spends its retries, then falls back
  {
    maxRetries: 2,
    validate: (_, ctx) => correctable(`fix ${ctx.attempt}`),
    fallback: () => 'safe',
  },
  // a transient failure, retried once after 1 ms
  {
    attempt: (ctx) => {
      if (ctx.attempt === 1) throw transientFailure('429', { effect: 'none', retryAfterMs: 1 });
      return withCost('ok', 1);
    },
    validate: () => valid,
  },
  // an idempotent attempt that times out twice
  { attempt: never, attemptTimeoutMs: 5, idempotent: true, validate: () => valid },
  // aborted while a 60 s attempt timeout is pending: the timer must be cleared
  { attempt: never, attemptTimeoutMs: 60_000, validate: () => valid, abortAfterMs: 2 },
  // aborted while waiting out a 30 s retry delay: the timer must be cleared
  {
    attempt: () => {
      throw transientFailure('503', { effect: 'none', retryAfterMs: 30_000 });
    },
    validate: () => valid,
    abortAfterMs: 2,
  },
  // the same candidate and verdict three times: stalled
  { attempt: () => 'same', maxRetries: 5, validate: () => correctable('same') },
  // honestly empty
  { attempt: () => emptyResult('nothing matches'), validate: () => valid },
].map(({ abortAfterMs, ...config }) => ({
  config: { attempt: (ctx) => `draft ${ctx.attempt}`, retryDelayMs: 0, ...config },
  abortAfterMs,
}));

let inFlight = 0;
let peakInFlight = 0;

async function runOne(index) {
  const { config, abortAfterMs } = kinds[index % kinds.length];
  const controller = new AbortController();
  const timer =
    abortAfterMs === undefined
      ? undefined
      : setTimeout(() => controller.abort('stop'), abortAfterMs);
  inFlight += 1;
  peakInFlight = Math.max(peakInFlight, inFlight);
  try {
    return (await runLoop(config, `task ${index}`, { signal: controller.signal })).status;
  } finally {
    inFlight -= 1;
    clearTimeout(timer);
  }
}

async function batch(loops) {
  const statuses = await Promise.all(Array.from({ length: loops }, (_, index) => runOne(index)));
  const tally = {};
  for (const status of statuses) tally[status] = (tally[status] ?? 0) + 1;
  return tally;
}

const loops = Number(loopsArg);
const startHeap = await settledHeap();
// The first batch sizes what the heap keeps for a peak of `loops` actors (JIT code, internal
// tables); the second batch must then leave the heap where the first left it.
const warmup = await batch(loops);
const baselineHeap = await settledHeap();
peakInFlight = 0;
const started = performance.now();
const statuses = await batch(loops);
const elapsedMs = Math.round(performance.now() - started);
const finalHeap = await settledHeap();
const activeResources = process.getActiveResourcesInfo();
const figures = {
  loops,
  peakInFlight,
  elapsedMs,
  statuses,
  warmup,
  startHeap,
  baselineHeap,
  finalHeap,
};
writeSync(1, `${JSON.stringify({ ...figures, activeResources })}\n`);
