import { createLoopMachine, type LoopConfig, type LoopOutcome } from 'loopchart';
import {
  type InvoiceText,
  type InvoiceTotal,
  readTotal,
} from '../model-based-testing/invoiceTotalLoop.js';

export type { InvoiceText, InvoiceTotal };

const cents = (amount: number) => Math.round(amount * 100) / 100;

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
