import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { runLoop } from 'loopchart';
import { describe, expect, it } from 'vitest';
import { correctable, valid } from './support/scriptedSteps.js';

// The routing guards cache the facts of the context they were last asked about. That cache must
// not keep a finished run's context alive: it holds the run's input, candidates and errors.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

async function collected(ref: WeakRef<object>): Promise<boolean> {
  for (let pass = 0; pass < 10 && ref.deref() !== undefined; pass++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  return ref.deref() === undefined;
}

describe('after a run, loopchart keeps none of its data', () => {
  it('the input and the candidates of a finished run can be collected', async () => {
    const refs = await (async () => {
      const input = { secret: 'x'.repeat(1000) };
      const candidates: object[] = [];
      const outcome = await runLoop(
        {
          maxRetries: 2,
          attempt: () => {
            const candidate = { draft: candidates.length };
            candidates.push(candidate);
            return candidate;
          },
          validate: (candidate) => (candidate.draft === 1 ? valid : correctable('again')),
        },
        input,
      );
      expect(outcome.status).toBe('proceed');
      return [new WeakRef(input), ...candidates.map((c) => new WeakRef(c))];
    })();
    for (const ref of refs) expect(await collected(ref)).toBe(true);
  });
});
