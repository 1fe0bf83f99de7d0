/**
 * Loops inside your own app actor: contract extraction for three suppliers, in parallel.
 * - the application machine spawns one loop per document as a child (`extract:<supplier>`), so the
 *   inspector shows them under the app;
 * - it reacts to each child's `LoopOutcome` as it arrives (`xstate.done.actor.extract:<supplier>`);
 * - when one loop fails fundamentally (Globex sent a scanned image, no text to extract), the app
 *   cancels the others with `loop.abort`: their in-flight attempt's `signal` aborts at once, and
 *   each still reports an honest `aborted` outcome;
 * - the app ends in `cancelled` with every outcome, or in `extracted` when all succeed.
 * Run it from a clone of the repository: `npm run example -- app-actor`.
 */
import { createLoopMachine, type LoopOutcome, type ValidationResult } from 'loopchart';
import { assign, createActor, enqueueActions, setup, toPromise } from 'xstate';

interface Contract {
  supplier: string;
  text: string;
}
interface Terms {
  supplier: string;
  paymentDays: number;
}

const documents: Contract[] = [
  { supplier: 'acme', text: 'Payment due within 30 days of invoice.' },
  { supplier: 'globex', text: '' }, // a scanned image: no text layer
  { supplier: 'initech', text: 'Payment due within 45 days, subject to audit.' },
];

/** What each document's attempt saw of its abort signal (the proof that cancelling reaches it). */
export const signals: Record<string, string> = {};

// One loop definition, spawned once per document. The attempt stands in for a slow model call:
// Initech's takes long enough that it is still running when Globex fails.
const extractTerms = createLoopMachine<Contract, Terms>({
  maxRetries: 2,
  attempt: ({ input, signal }) =>
    new Promise<Terms>((resolve, reject) => {
      const delay = { acme: 0, globex: 20, initech: 60_000 }[input.supplier] ?? 0;
      const timer = setTimeout(() => {
        const days = /within (\d+) days/.exec(input.text)?.[1];
        resolve({ supplier: input.supplier, paymentDays: Number(days ?? Number.NaN) });
      }, delay);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        signals[input.supplier] = 'in-flight attempt signal aborted';
        reject(signal.reason);
      });
    }),
  validate: (terms, { input }): ValidationResult =>
    input.text === ''
      ? { valid: false, error: { severity: 'fundamental', message: 'the document has no text' } }
      : Number.isInteger(terms.paymentDays)
        ? { valid: true }
        : { valid: false, error: { severity: 'correctable', message: 'payment days not found' } },
});

type Outcomes = Record<string, LoopOutcome<Terms>>;
const childId = (supplier: string) => `extract:${supplier}`;
const fundamental = (outcome: LoopOutcome<Terms>) =>
  outcome.status === 'terminate_with_partial' || outcome.status === 'permanent_failure';

/** The application: one child loop per document; it reacts to each outcome as it arrives. */
export const app = setup({
  types: {
    context: {} as { documents: Contract[]; outcomes: Outcomes; cancelledBecause?: string },
    input: {} as { documents: Contract[] },
  },
  actors: { extractTerms },
  guards: {
    allReported: ({ context }) => Object.keys(context.outcomes).length === context.documents.length,
    anyFundamental: ({ context }) => Object.values(context.outcomes).some(fundamental),
  },
  actions: {
    // Every child's done event carries its LoopOutcome; `actorId` says whose it is.
    record: assign(({ context, event }) => {
      const { actorId, output } = event as unknown as {
        actorId: string;
        output: LoopOutcome<Terms>;
      };
      return { outcomes: { ...context.outcomes, [actorId.replace('extract:', '')]: output } };
    }),
    // Cancel every loop that has not reported yet; each still reports an `aborted` outcome.
    cancelTheRest: enqueueActions(({ context, enqueue }) => {
      const [supplier, outcome] =
        Object.entries(context.outcomes).find(([, o]) => fundamental(o)) ?? [];
      const reason = `${supplier} failed fundamentally (${outcome?.status})`;
      enqueue.assign({ cancelledBecause: reason });
      for (const doc of context.documents) {
        if (!context.outcomes[doc.supplier]) {
          enqueue.sendTo(childId(doc.supplier), { type: 'loop.abort', reason });
        }
      }
    }),
  },
}).createMachine({
  id: 'contracts',
  context: ({ input }) => ({ documents: input.documents, outcomes: {} }),
  entry: enqueueActions(({ context, enqueue }) => {
    for (const doc of context.documents) {
      enqueue.spawnChild('extractTerms', { id: childId(doc.supplier), input: { input: doc } });
    }
  }),
  initial: 'extracting',
  states: {
    extracting: {
      on: { 'xstate.done.actor.*': { actions: 'record' } },
      always: [
        { guard: 'anyFundamental', target: 'cancelling' },
        { guard: 'allReported', target: 'extracted' },
      ],
    },
    cancelling: {
      entry: 'cancelTheRest',
      on: { 'xstate.done.actor.*': { actions: 'record' } },
      always: { guard: 'allReported', target: 'cancelled' },
    },
    extracted: { type: 'final' },
    cancelled: { type: 'final' },
  },
});

const actor = createActor(app, { input: { documents } }).start();
await toPromise(actor);
export const result = actor.getSnapshot();

console.log(`${result.value}: ${result.context.cancelledBecause ?? 'all contracts extracted'}`);
for (const [supplier, outcome] of Object.entries(result.context.outcomes)) {
  const terms = outcome.status === 'proceed' ? `, ${outcome.candidate.paymentDays} days` : '';
  const signal = signals[supplier] ? ` (${signals[supplier]})` : '';
  console.log(`  ${supplier}: ${outcome.status}${terms}${signal}`);
}
