import {
  createLoopMachine,
  LOOP_STATUSES,
  type LoopConfig,
  type LoopStatus,
  resolveConfig,
} from 'loopchart';
import type { GraphEdge } from 'loopchart/analysis';
import {
  getLoopPaths,
  isLoopPathMismatchError,
  type LoopPath,
  type LoopPathOptions,
  transitionCoverage,
} from 'loopchart/testing';
import { describe, expect, it } from 'vitest';
import { replayLoopPath } from '../src/tools/testing/replayLoopPath.js';
import { dryRun } from '../src/tools/testing/takenTransitions.js';
import { specBounds } from './support/specBounds.js';

// Every path of loopchart's own machine, for many configs: each path is replayed against the
// real machine and SPEC §3's bounds are asserted on it; every transition and final state is hit.

type Options = Omit<LoopConfig<unknown, unknown>, 'attempt' | 'validate'>;
const steps = { attempt: () => 'unused', validate: () => ({ valid: true as const }) };
const STEP_STATES: Record<string, string> = {
  attempt: 'attempting',
  validate: 'validating',
  refine: 'refining',
  fallback: 'fallingBack',
};

/** `routing: otherwise → iteration_exhausted`: a transition by its source, guard and target. */
const nameOf = (edge: GraphEdge) =>
  `${edge.source.split('.').pop()}: ${edge.guard ?? 'otherwise'} → ${edge.target.split('.').pop()}`;

async function proveEveryPath(name: string, options: Options, pathOptions: LoopPathOptions = {}) {
  const config = { ...steps, retryDelayMs: 0, ...options };
  const machine = createLoopMachine<unknown, unknown>(config);
  const bounds = specBounds(config);
  expect(resolveConfig(config)).toMatchObject(bounds);
  const paths = getLoopPaths(machine, pathOptions);
  for (const path of paths) await proveOne(path, bounds);
  const coverage = transitionCoverage(machine, paths);
  const finals = Object.values(machine.root.states).filter((node) => node.type === 'final');
  console.log(
    `paths [${name}]: ${paths.length} ${pathOptions.paths ?? 'shortest'} paths replayed; ` +
      `${coverage.covered}/${coverage.total} transitions covered (${(coverage.ratio * 100).toFixed(1)}%); ` +
      `${finals.length - coverage.unreachedFinals.length}/${finals.length} final states reached`,
  );
  const missed = [
    ...coverage.uncovered.map(nameOf),
    ...coverage.unreachedFinals.map((id) => `final ${id.split('.').pop()}`),
  ];
  expect(missed).toEqual([]);
  return { machine, paths };
}

async function proveOne(path: LoopPath, bounds: { maxAttempts: number; maxRetries: number }) {
  const { outcome } = await path.replay();
  const where = path.description;
  expect(LOOP_STATUSES, where).toContain(outcome.status);
  expect(outcome.status, where).toBe(path.status);
  expect(outcome.attempts, where).toBeLessThanOrEqual(bounds.maxAttempts);
  expect(outcome.iterations, where).toBeLessThanOrEqual(bounds.maxRetries);
  const stepEntries = outcome.trace.filter((entry) => !entry.decision).map((entry) => entry.state);
  const pathSteps = path.steps.flatMap(({ event }) => {
    const state = STEP_STATES[/^xstate\.(?:done|error)\.actor\.(\w+)$/.exec(event.type)?.[1] ?? ''];
    return state ? [state] : [];
  });
  expect(stepEntries, where).toEqual(pathSteps);
  expect(stepEntries.filter((state) => state === 'fallingBack').length, where).toBeLessThanOrEqual(
    1,
  );
  const terminal = outcome.trace
    .map((entry) => entry.decision)
    .filter(
      (decision) => decision !== 'fallback' && LOOP_STATUSES.includes(decision as LoopStatus),
    );
  expect(terminal, where).toEqual(outcome.status === 'fallback' ? [] : [outcome.status]);
  expect(outcome.trace.filter((entry) => entry.decision === 'refine').length, where).toBe(
    outcome.iterations,
  );
}

describe('every path of the loop, by retry budget', () => {
  it.each([0, 1, 3, 10])('maxRetries %i', async (maxRetries) => {
    await proveEveryPath(`maxRetries ${maxRetries}`, { maxRetries });
  });
});

describe('every path of the loop, by feature', () => {
  it.each<[string, Options]>([
    ['fallback', { maxRetries: 2, fallback: () => 'template' }],
    ['fallback, maxRetries 0', { maxRetries: 0, fallback: () => 'template' }],
    ['stall on the verdict after 2', { maxRetries: 3, stall: { after: 2, on: 'verdict' } }],
    ['no stall detection', { maxRetries: 3, stall: false }],
    [
      'transient retries, every step idempotent',
      { maxRetries: 1, idempotent: true, fallback: () => 'template' },
    ],
    [
      'transient retries, only the attempt idempotent',
      { maxRetries: 1, idempotent: { attempt: true } },
    ],
    ['cost budget with fallback', { maxRetries: 2, maxCost: 10, fallback: () => 'template' }],
    ['cost budget, maxRetries 0', { maxRetries: 0, maxCost: 4 }],
    ['ceiling at the retry budget', { maxRetries: 3, maxAttempts: 4 }],
    [
      'ceiling at the retry budget, with fallback',
      { maxRetries: 3, maxAttempts: 3, fallback: () => 'template' },
    ],
    ['a single attempt, retries configured', { maxRetries: 2, maxAttempts: 1 }],
    [
      'a single attempt, with fallback and budget',
      { maxRetries: 0, maxAttempts: 1, maxCost: 5, fallback: () => 'template' },
    ],
    ['ceiling below the retry budget', { maxRetries: 3, maxAttempts: 2 }],
    ['review before proceeding', { maxRetries: 1, review: { beforeProceed: true } }],
    [
      'review after failed validation, with stall and fallback',
      {
        maxRetries: 1,
        review: { afterFailedValidation: true },
        stall: { after: 2 },
        fallback: () => 'template',
      },
    ],
    [
      'review after failed validation, maxRetries 0',
      { maxRetries: 0, review: { afterFailedValidation: true } },
    ],
  ])('%s', async (name, options) => {
    await proveEveryPath(name, options);
  });
});

describe('path enumeration', () => {
  it('also enumerates and replays simple paths', async () => {
    const shortest = getLoopPaths(createLoopMachine({ ...steps, maxRetries: 1 }));
    const { paths } = await proveEveryPath(
      'simple, maxRetries 1',
      { maxRetries: 1 },
      { paths: 'simple' },
    );
    expect(paths.length).toBeGreaterThan(shortest.length);
  });

  it('names each path by its events and its end', () => {
    const paths = getLoopPaths(createLoopMachine({ ...steps, maxRetries: 1, stall: false }));
    const names = paths.map((path) => path.description);
    expect(names).toContain('attempt → valid ⇒ proceed');
    expect(names).toContain('attempt → correctable → refine → attempt → valid ⇒ proceed');
    expect(names).toContain(
      'attempt → correctable → refine → attempt → correctable ⇒ iteration_exhausted',
    );
    expect(names).toContain(
      'attempt: transient (effect none) → retry wait → attempt → valid ⇒ proceed',
    );
    expect(names).toContain('attempt: asks a question → answer → attempt → valid ⇒ proceed');
    expect(new Set(names).size).toBe(names.length);
  });

  it('fails a replay whose run leaves the path, naming the path and the step', async () => {
    const machine = createLoopMachine({ ...steps, maxRetries: 1 });
    const path = getLoopPaths(machine).find(
      (p) => p.description === 'attempt → fundamental ⇒ terminate_with_partial',
    );
    if (!path) throw new Error('the fundamental path is missing');
    const events = path.steps.map((step) => step.event);
    const input = { task: 'summarise the memo' };
    const sabotaged = machine.provide({ guards: { isFundamental: () => false } });
    const replay = replayLoopPath({
      machine: sabotaged,
      input,
      description: path.description,
      status: path.status,
      events,
      expected: () => dryRun(machine, input, events),
    });
    await expect(replay).rejects.toSatisfy(isLoopPathMismatchError);
    await expect(replay).rejects.toThrow(
      /the run is in "refining".*\n {2}path: attempt → fundamental ⇒ terminate_with_partial\n {2}at step 2/s,
    );
    await expect(path.replay()).resolves.toMatchObject({
      outcome: { status: 'terminate_with_partial' },
    });
  });
});
