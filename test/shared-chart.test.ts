import { type LoopConfig, runLoop } from 'loopchart';
import { describe, expect, it } from 'vitest';
import type { AnyActorLogic, InspectionEvent } from 'xstate';

const chartOf = async (config: LoopConfig<string, string>, input = 'q') => {
  let logic: AnyActorLogic | undefined;
  const inspect = (event: InspectionEvent) => {
    if (event.actorRef.sessionId === event.rootId) {
      logic ??= (event.actorRef as unknown as { logic: AnyActorLogic }).logic;
    }
  };
  const outcome = await runLoop(config, input, { inspect });
  return { logic, outcome };
};

// a config built per call, its steps closing over request data
const perCall = (request: string, maxRetries = 2): LoopConfig<string, string> => ({
  maxRetries,
  attempt: async ({ input, attempt }) => `${request}: ${input} #${attempt}`,
  validate: async (candidate) =>
    candidate.endsWith('#2')
      ? { valid: true }
      : { valid: false, error: { severity: 'correctable', message: `fix ${request}` } },
});

describe('runLoop shares one chart per shape', () => {
  it('reuses the chart of a config built per call with the same options', async () => {
    const first = await chartOf(perCall('a'));
    const second = await chartOf(perCall('b'));
    expect(first.logic).toBeDefined();
    expect(second.logic).toBe(first.logic);
  });

  it('builds another chart for other settings or another id', async () => {
    const base = await chartOf(perCall('a'));
    expect((await chartOf(perCall('a', 3))).logic).not.toBe(base.logic);
    expect((await chartOf({ ...perCall('a'), id: 'other' })).logic).not.toBe(base.logic);
  });

  it('runs each run with its own steps, even when runs of one chart overlap', async () => {
    const results = await Promise.all(
      ['alpha', 'beta', 'gamma', 'delta'].map((request) => chartOf(perCall(request), request)),
    );
    expect(results.map(({ outcome }) => outcome.status === 'proceed' && outcome.candidate)).toEqual(
      ['alpha: alpha #2', 'beta: beta #2', 'gamma: gamma #2', 'delta: delta #2'],
    );
    expect(new Set(results.map(({ logic }) => logic)).size).toBe(1);
  });
});
