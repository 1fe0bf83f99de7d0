/**
 * Quickstart: the README's first loop, run as written.
 * - attempt → validate → refine: the validator's complaint goes back to the next attempt as `feedback`;
 * - honest stops: the outcome's `status` says how the loop ended, `trace` says why.
 */
import { runLoop } from 'loopchart';

// A stand-in for a model call: it writes a long blurb first and shortens it when told to.
const writeBlurb = (product: string, feedback?: string) =>
  feedback
    ? `${product}: quiet, light, all-day battery.`
    : `${product}: ${'an astonishing experience, '.repeat(4)}`;

const outcome = await runLoop(
  {
    maxRetries: 3,
    attempt: ({ input, feedback }) => writeBlurb(input, feedback?.message),
    validate: (blurb) =>
      blurb.length <= 60
        ? { valid: true }
        : {
            valid: false,
            error: {
              severity: 'correctable',
              message: `too long: ${blurb.length} > 60 characters`,
            },
          },
  },
  'Noise-cancelling headphones',
);

if (outcome.ok && outcome.status === 'proceed') {
  console.log(`${outcome.status} after ${outcome.iterations} refine(s): ${outcome.candidate}`);
} else {
  console.log(`${outcome.status}: ${outcome.rationale}`);
}
