import { LOOP_STATUSES, type LoopOutcome, OK_STATUSES } from 'loopchart';
import { expect } from 'vitest';
import type { Scenario } from './Scenario.js';
import { maxAttemptsOf } from './scenarioArbitrary.js';
import type { Probe } from './scriptedLoop.js';

const TERMINAL_DECISIONS = new Set<string>(LOOP_STATUSES.filter((s) => s !== 'fallback'));

/**
 * SPEC §3's bounds, counted on the steps themselves: attempt calls ≤ maxAttempts, refine cycles ≤
 * maxRetries, the fallback at most once, and one terminal status (the trace's last decision).
 */
export function expectWithinBounds(outcome: LoopOutcome, scenario: Scenario, probe: Probe): void {
  const { calls } = probe;
  expect(LOOP_STATUSES).toContain(outcome.status);
  expect(outcome.ok).toBe((OK_STATUSES as readonly string[]).includes(outcome.status));
  expect(calls.attempt).toBeLessThanOrEqual(maxAttemptsOf(scenario));
  expect(outcome.attempts).toBe(calls.attempt);
  expect(outcome.iterations).toBeLessThanOrEqual(scenario.maxRetries);
  expect(Math.max(0, ...probe.refineIterations)).toBeLessThanOrEqual(outcome.iterations);
  // A refine cycle runs refine once, plus at most one transient retry of it.
  expect(calls.refine).toBeLessThanOrEqual(2 * outcome.iterations);
  expect(calls.fallback).toBeLessThanOrEqual(1);
  if (!scenario.hasFallback) expect(calls.fallback).toBe(0);
  if (outcome.ok) expect('error' in outcome).toBe(false);
  else expect(outcome.error.kind).toBe(outcome.status);
  expect(Number.isFinite(outcome.cost) && outcome.cost >= 0).toBe(true);
  expect(outcome.rationale).toEqual(expect.any(String));
  expectOneTerminalEntry(outcome, scenario);
}

function expectOneTerminalEntry(outcome: LoopOutcome, scenario: Scenario): void {
  const { trace } = outcome;
  if (scenario.trace === false) {
    expect(trace).toEqual([]);
    return;
  }
  const terminal = trace.filter((e) => e.decision && TERMINAL_DECISIONS.has(e.decision));
  const refines = trace.filter((e) => e.decision === 'refine');
  expect(refines).toHaveLength(outcome.iterations);
  if (outcome.status === 'fallback') {
    expect(terminal).toHaveLength(0);
    expect(trace.filter((e) => e.decision === 'fallback')).toHaveLength(1);
  } else {
    expect(terminal).toHaveLength(1);
    expect(trace.at(-1)?.decision).toBe(outcome.status);
  }
}

/**
 * The outcome is JSON: every field loopchart owns survives a JSON round trip, and the only values
 * that may not are the user's own (candidate, partial, lastOutput), carried by identity, never made up.
 */
export function expectSerialisable(outcome: LoopOutcome, probe: Probe): void {
  const userFields = expectOnlyReturnedValues(outcome, probe);
  const owned = ownedPart(outcome);
  expect(JSON.parse(JSON.stringify(owned))).toEqual(owned);
  if (userFields.every(serialises)) expect(() => JSON.stringify(outcome)).not.toThrow();
}

function expectOnlyReturnedValues(outcome: LoopOutcome, probe: Probe): unknown[] {
  const fromAttempt = (value: unknown) => value === undefined || probe.attemptValues.has(value);
  // the validator sees only what an attempt returned (undefined only if an attempt returned it)
  for (const candidate of probe.validated) expect(probe.attemptValues.has(candidate)).toBe(true);
  switch (outcome.status) {
    case 'proceed':
      expect(probe.attemptValues.has(outcome.candidate)).toBe(true);
      expect(probe.validated.includes(outcome.candidate)).toBe(true);
      return [outcome.candidate];
    case 'fallback':
      expect(probe.fallbackValues.has(outcome.candidate)).toBe(true);
      expect(fromAttempt(outcome.partial)).toBe(true);
      return [outcome.candidate, outcome.partial];
    case 'empty':
      expect(outcome.empty.reason).toEqual(expect.any(String));
      return [];
    default:
      expect(fromAttempt(outcome.partial)).toBe(true);
      if (outcome.partial !== undefined) {
        expect(Object.is(outcome.error.lastOutput, outcome.partial)).toBe(true);
      }
      return [outcome.partial];
  }
}

function ownedPart(outcome: LoopOutcome): unknown {
  const { candidate, partial, error, ...rest } = outcome as LoopOutcome & {
    candidate?: unknown;
    partial?: unknown;
    error?: { lastOutput?: unknown };
  };
  if (!error) return rest;
  const { lastOutput, ...ownError } = error;
  return { ...rest, error: ownError };
}

function serialises(value: unknown): boolean {
  try {
    JSON.stringify(value);
    return true;
  } catch {
    return false;
  }
}
