import { createLoopMachine, transientFailure } from 'loopchart';

/** What the loop is asked: the OCR text of an invoice. */
export interface InvoiceText {
  text: string;
  hint?: string;
}

/** What an attempt proposes: the line items and the total it read. */
export interface InvoiceTotal {
  lines: number[];
  total: number;
}

/** A stand-in for a model call; path tests script it, so it never runs there. */
export async function readTotal({ text, hint }: InvoiceText): Promise<InvoiceTotal> {
  if (text.length === 0)
    throw transientFailure('the OCR service is warming up', { effect: 'none' });
  const amounts = [...text.matchAll(/\d+\.\d\d/g)].map((match) => Number(match[0]));
  const lines = hint ? amounts.slice(0, -1) : amounts;
  return { lines, total: amounts.at(-1) ?? 0 };
}

/** A user's own loop: read an invoice total, check it against the line items, retry with a hint. */
export const invoiceTotalLoop = createLoopMachine<InvoiceText, InvoiceTotal>({
  id: 'invoiceTotal',
  maxRetries: 1,
  idempotent: { attempt: true },
  attempt: ({ input }) => readTotal(input),
  validate: ({ lines, total }) => {
    const sum = Math.round(lines.reduce((a, b) => a + b, 0) * 100) / 100;
    if (sum === total) return { valid: true };
    return {
      valid: false,
      error: { severity: 'correctable', message: `the lines sum to ${sum}, not ${total}` },
    };
  },
  refine: ({ input, error }) => ({ ...input, hint: error.message }),
});
