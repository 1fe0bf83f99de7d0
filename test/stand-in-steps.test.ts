import { describe, expect, it } from 'vitest';
import { runOneStep } from '../src/core/chart/runOneStep.js';
import { runStepsOf, type StepInput } from '../src/core/chart/stepActors.js';
import { type LoopConfig, resolveConfig } from '../src/core/vocabulary/config.js';

// A step in flight when its run was checkpointed runs again only if running it twice is harmless:
// loopchart's stand-in for a refine the config leaves out acts on nothing, so it always may.

const input: StepInput = {
  input: 'brief',
  feedback: { severity: 'correctable', message: 'too short' },
  previous: undefined,
  candidate: 'draft',
  iteration: 0,
  attempt: 1,
  key: undefined,
  answers: [],
  resumed: true,
  deadlineAt: null,
};

const resumedRefine = (config: LoopConfig<string, string>) =>
  runOneStep(
    'refine',
    () => runStepsOf(config),
    resolveConfig(config),
    input,
    new AbortController().signal,
  );

describe('a resumed refine that was in flight', () => {
  const base: LoopConfig<string, string> = {
    attempt: ({ input }) => input,
    validate: () => ({ valid: true }),
  };

  it('runs again when it is the stand-in of a loop without refine', async () => {
    await expect(resumedRefine(base)).resolves.toBe('brief');
  });

  it('is an uncertain failure when it is the user’s own, not idempotent', async () => {
    const refine = ({ input }: { input: string }) => `${input}!`;
    await expect(resumedRefine({ ...base, refine })).rejects.toMatchObject({
      step: 'refine',
      kind: 'uncertain',
    });
    await expect(resumedRefine({ ...base, refine, idempotent: { refine: true } })).resolves.toBe(
      'brief!',
    );
  });
});
