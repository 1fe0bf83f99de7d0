import type { LoopSamples, VerdictSamples } from 'loopchart/testing';
import type { InvoiceText, InvoiceTotal } from './invoiceLoop.js';

// Readings by the verdict the invoice validator gives them; `n` is the attempt number, so no two
// attempts read the same total and stall detection only fires where a path repeats a draft.
const readings: VerdictSamples<InvoiceTotal> = {
  valid: (n) => ({ lines: [12.5, 7.25, n], total: 19.75 + n }),
  correctable: (n) => ({ lines: [12.5, 7.25], total: 19 + n }),
  fundamental: { lines: [], total: 19.75 },
  noDiagnostic: (n) => ({ lines: [12.5], total: -n }),
};

/** A 429 as an HTTP client throws it: the loop's classifyFailure must call it transient. */
const rateLimited = Object.assign(new Error('429 Too Many Requests'), { status: 429 });

/** The values the invoice loop's path tests feed: every one typed as the loop's own I and C. */
export const invoiceSamples: LoopSamples<InvoiceText, InvoiceTotal> = {
  candidates: readings,
  fallback: { lines: [12.5, 7.25], total: 19.75 },
  edits: { input: { text: 'Paper 12.50 Total 12.50' }, candidate: readings },
  answer: 'the 2025 invoice',
  errors: { transient: rateLimited },
};
