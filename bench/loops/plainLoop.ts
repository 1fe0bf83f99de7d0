import { attempt, type LoopImplementation, MAX_RETRIES, refine, validate } from './workload.js';

/** The floor of all floors: a `while` loop awaiting the three steps. */
export const plainLoop: LoopImplementation = {
  name: 'plain async while',
  async run(task) {
    let input = task;
    let retries = 0;
    while (true) {
      const candidate = await attempt(input);
      const verdict = await validate(candidate);
      if (verdict.valid || retries >= MAX_RETRIES) return { candidate, iterations: retries };
      input = await refine(input, verdict.error.message);
      retries++;
    }
  },
};
