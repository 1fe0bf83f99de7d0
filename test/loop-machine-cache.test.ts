import { type LoopConfig, loopMachineFor, runLoop } from 'loopchart';
import { describe, expect, it } from 'vitest';
import { correctable } from './support/scriptedSteps.js';

describe('runLoop reuses the machine of a config it has seen', () => {
  const config = (): LoopConfig<string, string> => ({
    maxRetries: 2,
    attempt: ({ attempt }) => `draft ${attempt}`,
    validate: () => correctable('never good enough'),
  });

  it('returns the same machine for the same, unchanged config object', () => {
    const shared = config();
    expect(loopMachineFor(shared)).toBe(loopMachineFor(shared));
    expect(loopMachineFor(config())).not.toBe(loopMachineFor(shared));
  });

  it('rebuilds when the config object changed, so a mutation is never ignored', async () => {
    const shared = config();
    expect((await runLoop(shared, 'q')).iterations).toBe(2);
    const before = loopMachineFor(shared);
    shared.maxRetries = 4;
    expect(loopMachineFor(shared)).not.toBe(before);
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
