import type { LoopConfig } from '../../../../core/vocabulary/config.js';
import type { ValidationResult } from '../../../../core/vocabulary/validation.js';
import { type DemoScenario, defineScenario, latency } from '../DemoScenario.js';

interface Submission {
  claimId: string;
  /** How each operation of the claim is processed, as the planner wrote it. */
  plan: { operation: string; mode: 'synchronous' | 'event-driven' }[];
  /** Documentation requested from the hospital so far. */
  requested: string[];
}

interface Packet {
  claimId: string;
  plan: Submission['plan'];
  anesthesia: { start?: string; end?: string };
}

/** What the hospital's records office sends back, by how many times it has been asked. */
const anesthesiaRecords = [{}, { start: '08:12' }, { start: '08:12', end: '09:47' }];

async function assemblePacket(submission: Submission, signal: AbortSignal): Promise<Packet> {
  await latency(60, signal);
  const asked = submission.requested.length;
  const anesthesia = anesthesiaRecords[Math.min(asked, anesthesiaRecords.length - 1)] ?? {};
  return { claimId: submission.claimId, plan: submission.plan, anesthesia };
}

async function verifyPacket(packet: Packet, signal: AbortSignal): Promise<ValidationResult> {
  await latency(25, signal);
  const modes = new Map<string, Set<string>>();
  for (const { operation, mode } of packet.plan) {
    modes.set(operation, (modes.get(operation) ?? new Set()).add(mode));
  }
  const contradictory = [...modes].find(([, set]) => set.size > 1);
  if (contradictory) {
    return {
      valid: false,
      error: {
        severity: 'fundamental',
        message: `${contradictory[0]} is planned both synchronous and event-driven; the plan contradicts itself`,
      },
    };
  }
  const missing = (['start', 'end'] as const).filter((field) => !packet.anesthesia[field]);
  if (missing.length === 0) return { valid: true };
  return {
    valid: false,
    error: {
      severity: 'correctable',
      message: `operative report lacks anesthesia ${missing.join(' and ')} time`,
    },
  };
}

const verification: LoopConfig<Submission, Packet> = {
  id: 'documentVerification',
  maxRetries: 3,
  attempt: ({ input, signal }) => assemblePacket(input, signal),
  validate: (packet, { signal }) => verifyPacket(packet, signal),
  refine: async ({ input, error, signal }) => {
    await latency(40, signal);
    return { ...input, requested: [...input.requested, `anesthesia record (${error.message})`] };
  },
};

/** The document-verification loop on two claims: one correctable, one fundamental. */
export const claimScenarios: DemoScenario[] = [
  defineScenario({
    name: 'claim-incomplete-report',
    expected: 'proceed',
    title: 'Document verification: an incomplete operative report',
    shows:
      'correctable: the missing anesthesia times are requested and the claim re-verified (at most 3 cycles)',
    config: verification,
    input: {
      claimId: 'CLM-1042',
      plan: [{ operation: 'submitClaim', mode: 'synchronous' }],
      requested: [],
    },
  }),
  defineScenario({
    name: 'claim-contradictory-plan',
    expected: 'terminate_with_partial',
    title: 'Document verification: a plan that contradicts itself',
    shows: 'fundamental: synchronous and event-driven for one operation; it stops with the partial',
    config: verification,
    input: {
      claimId: 'CLM-1043',
      plan: [
        { operation: 'submitClaim', mode: 'synchronous' },
        { operation: 'submitClaim', mode: 'event-driven' },
      ],
      requested: [],
    },
  }),
];
