/**
 * A pipeline of loops: "Which customers were billed twice in March, and what do we refund?"
 * - find → (ledger, crm) → summary: stages run in dependency layers; the two cross-references run
 *   together as child loop actors, each with its own validate-and-refine loop;
 * - `find` and `summary` each need one refine (a row outside March; a summary without the total);
 * - the cross-stage check makes the ledger and the CRM agree before anything downstream starts;
 * - `ledger` is a checkpoint: the pipeline pauses (stored in a CheckpointStore) until a person
 *   approves the double-billed invoices, then `resumePipeline` writes the summary without running
 *   the finished stages again.
 * Deterministic and offline: the "database" is three arrays below.
 * Run it from a clone of the repository: `npm run example -- pipeline`.
 */
import { MemoryCheckpointStore, type ValidationResult } from 'loopchart';
import {
  type PipelineEmitted,
  type PipelinePlan,
  resumePipeline,
  runPipeline,
} from 'loopchart/pipeline';

interface Invoice {
  id: string;
  customer: string;
  issued: string;
  amount: number;
}
interface DoubleBilled {
  invoice: string;
  customer: string;
  payments: number;
  amount: number;
}
interface Account {
  customer: string;
  name: string;
  manager: string;
}

const invoices: Invoice[] = [
  { id: 'INV-298', customer: 'acme', issued: '2026-02-03', amount: 300 },
  { id: 'INV-301', customer: 'acme', issued: '2026-03-02', amount: 1200 },
  { id: 'INV-302', customer: 'globex', issued: '2026-03-09', amount: 800 },
  { id: 'INV-303', customer: 'initech', issued: '2026-03-15', amount: 450 },
  { id: 'INV-304', customer: 'umbrella', issued: '2026-03-28', amount: 975 },
];
const payments = ['INV-298', 'INV-301', 'INV-301', 'INV-302', 'INV-303', 'INV-303', 'INV-304'];
const crm: Account[] = [
  { customer: 'acme', name: 'Acme Corp', manager: 'Dana' },
  { customer: 'globex', name: 'Globex', manager: 'Lee' },
  { customer: 'initech', name: 'Initech', manager: 'Dana' },
  { customer: 'umbrella', name: 'Umbrella Ltd', manager: 'Sam' },
];

const ok: ValidationResult = { valid: true };
const correctable = (message: string): ValidationResult => ({
  valid: false,
  error: { severity: 'correctable', message },
});

const plan: PipelinePlan = {
  id: 'doubleBilling',
  stages: [
    {
      id: 'summary',
      dependsOn: ['ledger', 'crm'],
      input: (results) => results,
      loop: {
        maxRetries: 2,
        // A stand-in for a model writing the answer; it adds the total once told to.
        attempt: ({ input, feedback }) => {
          const { ledger, crm: accounts } = input as { ledger: DoubleBilled[]; crm: Account[] };
          const names = ledger.map((row) => nameOf(accounts, row.customer)).join(' and ');
          const total = ledger.reduce((sum, row) => sum + row.amount, 0);
          const draft = `${names} paid a March invoice twice.`;
          return feedback ? `${draft} Refund ${total} in total.` : draft;
        },
        validate: (text, { input }) => {
          const { ledger } = input as { ledger: DoubleBilled[] };
          const total = ledger.reduce((sum, row) => sum + row.amount, 0);
          return String(text).includes(String(total))
            ? ok
            : correctable(`the summary must state the total to refund (${total})`);
        },
      },
    },
    {
      id: 'ledger',
      dependsOn: ['find'],
      checkpoint: true,
      input: (results) => results.find,
      loop: {
        maxRetries: 1,
        attempt: ({ input }) =>
          (input as Invoice[])
            .map((row) => ({
              invoice: row.id,
              customer: row.customer,
              payments: payments.filter((paid) => paid === row.id).length,
              amount: row.amount,
            }))
            .filter((row) => row.payments > 1),
        validate: (rows) =>
          (rows as DoubleBilled[]).every((row) => row.payments >= 2)
            ? ok
            : correctable('a flagged invoice was paid only once'),
      },
    },
    {
      id: 'crm',
      dependsOn: ['find'],
      input: (results) => [...new Set((results.find as Invoice[]).map((row) => row.customer))],
      loop: {
        maxRetries: 1,
        attempt: ({ input }) =>
          crm.filter((account) => (input as string[]).includes(account.customer)),
        validate: (accounts, { input }) =>
          (accounts as Account[]).length === (input as string[]).length
            ? ok
            : correctable('some customers are missing from the CRM'),
      },
    },
    {
      id: 'find',
      loop: {
        maxRetries: 2,
        // A stand-in for a generated query: the first one matches "03" anywhere in the date.
        attempt: ({ input, feedback }) => {
          const { month } = input as { month: string };
          return feedback
            ? invoices.filter((row) => row.issued.startsWith(month))
            : invoices.filter((row) => row.issued.includes(month.slice(5)));
        },
        validate: (rows, { input }) => {
          const { month } = input as { month: string };
          const outside = (rows as Invoice[]).find((row) => !row.issued.startsWith(month));
          return outside
            ? correctable(`${outside.id} is dated ${outside.issued}, outside ${month}`)
            : ok;
        },
      },
    },
  ],
  // The two sources must agree: every double-billed customer is a known account.
  crossCheck: (results) => {
    const accounts = results.crm as Account[];
    const unknown = (results.ledger as DoubleBilled[]).filter(
      (row) => !accounts.some((account) => account.customer === row.customer),
    );
    return unknown.length === 0
      ? ok
      : {
          valid: false,
          error: {
            severity: 'fundamental',
            message: `not in the CRM: ${unknown.map((row) => row.customer).join(', ')}`,
          },
        };
  },
};

function nameOf(accounts: Account[], customer: string): string {
  return accounts.find((account) => account.customer === customer)?.name ?? customer;
}

/** The stage events in order, as `+ledger` (started) and `-ledger proceed` (finished). */
export const timeline: string[] = [];
const onEvent = (event: PipelineEmitted) => {
  if (event.type === 'pipeline.stage.started') timeline.push(`+${event.stage}`);
  if (event.type === 'pipeline.stage.finished')
    timeline.push(`-${event.stage} ${event.loopStatus}`);
};

const store = new MemoryCheckpointStore();
const runId = 'march-double-billing';
const question = { month: '2026-03' };

export const paused = await runPipeline(plan, question, { store, runId, onEvent });
if (paused.status !== 'paused') throw new Error(`expected the checkpoint, got ${paused.status}`);
console.log(`paused: ${paused.pause.message}`);
for (const row of paused.results.ledger as DoubleBilled[]) {
  console.log(`  ${row.invoice} ${row.customer}: paid ${row.payments} times, ${row.amount}`);
}

// …a person reviews the flagged invoices (this could be another process, days later)…
export const answer = await resumePipeline(plan, {
  store,
  runId,
  event: { type: 'pipeline.continue' },
  onEvent,
});
if (answer.status === 'paused') throw new Error(`unexpected pause: ${answer.pause.message}`);
console.log(`${answer.status}: ${answer.results.summary}`);
for (const [id, stage] of Object.entries(answer.stages)) {
  console.log(
    `  ${id}: ${stage.status} (${stage.loopStatus}), layer ${stage.layer}, ${stage.attempts} attempt(s), ${stage.iterations} refine(s)`,
  );
}
console.log(`  timeline: ${timeline.join(' ')}`);
