import { createLoopMachine, type LoopConfig, type LoopOutcome, transientFailure } from 'loopchart';

/** What the loop is asked: the OCR text of an invoice, and a hint after a failed reading. */
export interface InvoiceText {
  text: string;
  hint?: string;
}

/** What an attempt proposes: the line items and the total it read. */
export interface InvoiceTotal {
  lines: number[];
  total: number;
}

const cents = (amount: number) => Math.round(amount * 100) / 100;

// A stand-in for a model call; path tests script it, so it never runs there.
async function readTotal({ text, hint }: InvoiceText): Promise<InvoiceTotal> {
  if (text.length === 0)
    throw transientFailure('the OCR service is warming up', { effect: 'none' });
  const amounts = [...text.matchAll(/\d+\.\d\d/g)].map((match) => Number(match[0]));
  const lines = hint ? amounts.slice(0, -1) : amounts;
  return { lines, total: amounts.at(-1) ?? 0 };
}

/** The invoice loop's steps: the user's own code, which path tests run for real. */
export const invoiceSteps = {
  id: 'invoice',
  maxRetries: 3,
  idempotent: { attempt: true },
  review: { beforeProceed: true },
  attempt: ({ input }) => readTotal(input),
  validate: ({ lines, total }) => {
    if (lines.length === 0) {
      return {
        valid: false,
        error: { severity: 'fundamental', message: 'no line items: not an invoice' },
      };
    }
    // a negative total is wrong, but nothing here says how to read it right
    if (total < 0) return { valid: false };
    const sum = cents(lines.reduce((a, b) => a + b, 0));
    if (sum === total) return { valid: true };
    return {
      valid: false,
      error: { severity: 'correctable', message: `the lines sum to ${sum}, not ${total}` },
    };
  },
  refine: ({ input, error }) => ({ ...input, hint: error.message }),
  // pure: the total is the sum of the lines the last reading found
  fallback: ({ partial }) => {
    const lines = partial?.lines ?? [];
    return { lines, total: cents(lines.reduce((a, b) => a + b, 0)) };
  },
  classifyFailure: (error) =>
    typeof error === 'object' && error !== null && 'status' in error && error.status === 429
      ? { kind: 'transient', effect: 'none' }
      : undefined,
} satisfies LoopConfig<InvoiceText, InvoiceTotal>;

/** The invoice loop: read a total, check it against the lines, retry with a hint, else sum the lines. */
export const invoiceLoop = createLoopMachine<InvoiceText, InvoiceTotal>(invoiceSteps);

/** The application's side: what it does with every way the invoice loop can end. */
export function handleInvoice(outcome: LoopOutcome<InvoiceTotal>): string {
  switch (outcome.status) {
    case 'proceed':
      return `book ${outcome.candidate.total.toFixed(2)}`;
    case 'fallback':
      return `book ${outcome.candidate.total.toFixed(2)}, the sum of ${outcome.candidate.lines.length} lines`;
    case 'empty':
      return `nothing to book: ${outcome.empty.reason}`;
    default: {
      const last = outcome.partial ? `; last reading ${outcome.partial.total.toFixed(2)}` : '';
      return `escalate (${outcome.status}: ${outcome.error.message}${last})`;
    }
  }
}
