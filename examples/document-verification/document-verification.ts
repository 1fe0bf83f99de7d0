/**
 * Document verification: a surgical claim is checked against its documentation before it is paid.
 * - correctable: the operative report lacks the anesthesia start and end times. The loop requests
 *   the missing documentation from the hospital (`refine`) and verifies again, at most 3 cycles;
 * - fundamental: the processing plan declares one operation both synchronous and event-driven.
 *   No amount of extra paperwork fixes a contradiction, so the loop stops at once and returns the
 *   partial result, leaving the 3 cycles unspent;
 * - the outcome says which happened (`status`, `iterations`, `rationale`), and the trace shows each
 *   request and each verdict.
 * Run it from a clone of the repository: `npm run example -- document-verification`.
 */
import { type LoopConfig, runLoop, type ValidationResult } from 'loopchart';

type Mode = 'synchronous' | 'event-driven';

interface ClaimRequest {
  claimId: string;
  plan: Array<{ operation: string; mode: Mode }>;
  /** Documents asked of the hospital so far, oldest first. */
  requests: string[];
}

interface OperativeReport {
  surgeon: string;
  procedure: string;
  anesthesiaStart?: string;
  anesthesiaEnd?: string;
}

interface ClaimFile {
  claimId: string;
  plan: ClaimRequest['plan'];
  operativeReport: OperativeReport;
}

type AnesthesiaTimes = Pick<OperativeReport, 'anesthesiaStart' | 'anesthesiaEnd'>;

/** The hospital's anesthesia records per claim, as they stand after 0, 1, 2… requests. */
const anesthesiaRecords: Record<string, AnesthesiaTimes[]> = {
  'CLM-2001': [
    {},
    { anesthesiaStart: '08:12' },
    { anesthesiaStart: '08:12', anesthesiaEnd: '09:47' },
  ],
  'CLM-2002': [{ anesthesiaStart: '13:05', anesthesiaEnd: '14:20' }],
};

/** The operative report the hospital sends for a claim, given what has been requested so far. */
function operativeReport(claimId: string, requests: readonly string[]): OperativeReport {
  const versions = anesthesiaRecords[claimId] ?? [{}];
  const times = versions[Math.min(requests.length, versions.length - 1)];
  return { surgeon: 'Dr. Okafor', procedure: 'cholecystectomy', ...times };
}

/** Finds the operations a plan declares in two contradicting modes. */
function contradictions(plan: ClaimFile['plan']): string[] {
  const modes = new Map<string, Set<Mode>>();
  for (const step of plan)
    modes.set(step.operation, (modes.get(step.operation) ?? new Set()).add(step.mode));
  return [...modes].filter(([, set]) => set.size > 1).map(([operation]) => operation);
}

function verify(file: ClaimFile): ValidationResult {
  const contradicting = contradictions(file.plan);
  if (contradicting.length > 0) {
    return {
      valid: false,
      error: {
        severity: 'fundamental',
        message: `${contradicting.join(', ')}: planned both synchronous and event-driven`,
      },
    };
  }
  const { anesthesiaStart, anesthesiaEnd } = file.operativeReport;
  const missing = [
    !anesthesiaStart && 'anesthesia start time',
    !anesthesiaEnd && 'anesthesia end time',
  ].filter(Boolean);
  if (missing.length > 0) {
    return {
      valid: false,
      error: {
        severity: 'correctable',
        message: `operative report lacks ${missing.join(' and ')}`,
      },
    };
  }
  return { valid: true };
}

const verification: LoopConfig<ClaimRequest, ClaimFile> = {
  id: 'documentVerification',
  maxRetries: 3,
  attempt: ({ input }) => ({
    claimId: input.claimId,
    plan: input.plan,
    operativeReport: operativeReport(input.claimId, input.requests),
  }),
  validate: (file) => verify(file),
  // Request the missing documentation; the next attempt assembles the claim file again.
  refine: ({ input, error }) => ({
    ...input,
    requests: [...input.requests, `anesthesia record: ${error.message}`],
  }),
};

const claims: ClaimRequest[] = [
  { claimId: 'CLM-2001', plan: [{ operation: 'adjudicate', mode: 'synchronous' }], requests: [] },
  {
    claimId: 'CLM-2002',
    plan: [
      { operation: 'adjudicate', mode: 'synchronous' },
      { operation: 'adjudicate', mode: 'event-driven' },
    ],
    requests: [],
  },
];

for (const claim of claims) {
  const outcome = await runLoop(verification, claim);
  console.log(`${claim.claimId}: ${outcome.status} after ${outcome.iterations} request cycle(s)`);
  console.log(`  ${outcome.rationale}`);
  for (const entry of outcome.trace.filter((e) => e.decision)) {
    console.log(`  #${entry.seq} ${entry.decision} (retry ${entry.retryCount}/3)`);
  }
  if (outcome.status === 'terminate_with_partial' && outcome.partial) {
    console.log(
      `  partial: ${outcome.partial.claimId}, report by ${outcome.partial.operativeReport.surgeon}`,
    );
  }
}
