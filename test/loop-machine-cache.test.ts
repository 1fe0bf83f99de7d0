import { compileLoop, type LoopConfig, runLoop } from 'loopchart';
import { describe, expect, it } from 'vitest';
import { correctable } from './support/scriptedSteps.js';

describe('runLoop reuses the machine of a config it has seen', () => {
  const config = (): LoopConfig<string, string> => ({
    maxRetries: 2,
    attempt: ({ attempt }) => `draft ${attempt}`,
    validate: () => correctable('never good enough'),
  });

  // runLoop runs a config on the step-free chart its settings share (issue 31 removed the registry
  // keyed by config objects): the same config, seen again, runs on the same machine
  const machineOf = (config: LoopConfig<string, string>) => compileLoop(config).sharedChart;

  it('returns the same machine for the same, unchanged config, another for other settings', () => {
    const shared = config();
    expect(machineOf(shared)).toBe(machineOf(shared));
    expect(machineOf({ ...config(), maxRetries: 3 })).not.toBe(machineOf(shared));
    const plan = compileLoop(shared);
    expect(plan.chart).toBe(plan.chart);
  });

  it('rebuilds when the config object changed, so a mutation is never ignored', async () => {
    const shared = config();
    expect((await runLoop(shared, 'q')).iterations).toBe(2);
    const before = machineOf(shared);
    shared.maxRetries = 4;
    expect(machineOf(shared)).not.toBe(before);
    expect((await runLoop(shared, 'q')).iterations).toBe(4);
    shared.stall = { after: 2, on: 'verdict' };
    expect(await runLoop(shared, 'q')).toMatchObject({ status: 'stalled', attempts: 2 });
    shared.stall.after = 3;
    expect(await runLoop(shared, 'q')).toMatchObject({ status: 'stalled', attempts: 3 });
    shared.validate = () => ({ valid: true });
    expect((await runLoop(shared, 'q')).status).toBe('proceed');
  });

  it('still validates a changed config', async () => {
    const shared = config();
    await runLoop(shared, 'q');
    shared.maxRetries = 99;
    await expect(runLoop(shared, 'q')).rejects.toThrow(
      /maxRetries: must be an integer from 0 to 50/,
    );
  });
});
