import { loopHealth, RED_FLAGS } from 'loopchart/health';
import { describe, expect, it } from 'vitest';
import { fixtureStore, HEALTH_FIXTURES, type HealthFixture } from '../bench/loops/healthRuns.js';

const store = await fixtureStore();
const report = await loopHealth(store);
const loopOf = (name: HealthFixture) => {
  const loop = report.loops.find((l) => l.loop === `fixture-${name}`);
  if (!loop) throw new Error(`no loop fixture-${name} in the report`);
  return loop;
};

describe('red flags over fixture sets of real stored runs', () => {
  it('reads every fixture run and skips none', () => {
    const total = Object.values(HEALTH_FIXTURES).reduce((n, runs) => n + runs.length, 0);
    expect(report.scanned).toBe(total);
    expect(report.skipped).toEqual({ pipeline: 0, unreadable: 0 });
    expect(report.loops.map((l) => l.loop)).toEqual(
      Object.keys(HEALTH_FIXTURES)
        .map((name) => `fixture-${name}`)
        .sort(),
    );
  });

  it('the healthy set raises no flag', () => {
    expect(loopOf('healthy').flags).toEqual([]);
  });

  it.each(RED_FLAGS.map((flag) => flag.id))('the %s set raises exactly its own flag', (id) => {
    expect(loopOf(id).flags.map((flag) => flag.id)).toEqual([id]);
  });

  it('all_correctable names the verdict counts and the threshold', () => {
    const [flag] = loopOf('all_correctable').flags;
    expect(flag?.counts).toEqual({ correctable: 62, invalid: 62, fundamental: 0 });
    expect(flag?.message).toContain('62 of 62 invalid verdicts (100%) were correctable');
    expect(flag?.message).toContain('threshold: ≥ 98% of ≥ 30');
  });

  it('exhausted_then_fallback names the exhausted runs and the cap', () => {
    const [flag] = loopOf('exhausted_then_fallback').flags;
    expect(flag?.value).toBeCloseTo(12 / 30);
    expect(flag?.message).toContain('12 of 30 finished runs (40%) spent all 3 retries');
    expect(flag?.message).toContain('threshold: ≥ 20% of ≥ 20 runs');
  });

  it('no_proceed names the proceed count', () => {
    const [flag] = loopOf('no_proceed').flags;
    expect(flag?.counts).toEqual({ proceed: 0, finished: 25 });
    expect(flag?.message).toContain('0 of 25 finished runs (0%) ended in proceed');
  });

  it('stalls names the fingerprint and the refine cycle it stalled at', () => {
    const loop = loopOf('stalls');
    const [flag] = loop.flags;
    const top = loop.stalls.fingerprints[0];
    expect(loop.stalls.runs).toBe(8);
    expect(top?.runs).toBe(8);
    expect(top?.atIteration).toEqual([0, 0, 8]);
    expect(flag?.message).toContain(
      `8 of 30 finished runs (27%) stalled, most on fingerprint ${top?.fingerprint} (8 runs, at refine cycle 2)`,
    );
  });
});

describe('the report of the healthy set', () => {
  const loop = loopOf('healthy');

  it('counts every status, iterations against the cap and the verdict mix', () => {
    expect(loop.outcomes).toMatchObject({ proceed: 23, terminate_with_partial: 5, fallback: 2 });
    expect(Object.keys(loop.outcomes)).toHaveLength(13);
    expect(loop.iterations).toMatchObject({
      histogram: [17, 6, 5, 2],
      maxRetries: 3,
      atCap: 2,
      exhausted: 2,
    });
    expect(loop.verdicts.counts).toEqual({
      valid: 23,
      correctable: 6 + 10 + 8,
      fundamental: 5,
      no_diagnostic: 0,
      malformed: 0,
    });
    expect(loop.verdicts.shares.fundamental).toBeCloseTo(5 / 29);
  });

  it('counts cost, transient failures and intermittent successes', () => {
    expect(loop.cost.total).toBe(12 * 2 + 6 * 2 * 2 + 5 * 2 * 3 + 5 + 2 * 3 * 4);
    expect(loop.cost.max).toBe(12);
    expect(loop.failures.transient).toBe(5);
    expect(loop.intermittent).toEqual({ runs: 5, successes: 5 });
    expect(loop.fallbackRate).toBeCloseTo(2 / 30);
  });

  it('classifies no-diagnostic and malformed verdicts', () => {
    expect(loopOf('no_proceed').verdicts.counts).toEqual({
      valid: 0,
      correctable: 8,
      fundamental: 18,
      no_diagnostic: 4,
      malformed: 3,
    });
  });
});
