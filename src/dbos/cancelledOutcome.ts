import { DBOS } from '@dbos-inc/dbos-sdk';
import type { StepName } from '../failures.js';
import { STEP_STATE } from '../machines/loopContext.js';
import type { LoopOutcome } from '../outcome.js';
import type { TraceEntry } from '../trace.js';
import type { RecordedStep } from './journalledStep.js';

const STEPS = new Set<string>(Object.keys(STEP_STATE));

/**
 * The `aborted` outcome of a loop workflow that DBOS cancelled. A cancelled workflow records no
 * return value, so the outcome is read from the steps DBOS journalled: one trace entry per step,
 * the attempts and refine cycles counted, the cost summed, the last candidate as `partial`.
 */
export async function cancelledOutcome<C>(runId: string): Promise<LoopOutcome<C>> {
  const steps = (await DBOS.listWorkflowSteps(runId)) ?? [];
  const trace: TraceEntry[] = [];
  let attempts = 0;
  let iterations = 0;
  let cost = 0;
  let partial: unknown;
  let inFlight: StepName | undefined;
  for (const info of steps) {
    const [name, marker] = info.name.split('.') as [string, string | undefined];
    if (!STEPS.has(name)) continue;
    const step = name as StepName;
    if (marker === 'started') {
      if (step === 'attempt') attempts++;
      inFlight = step;
      continue;
    }
    inFlight = undefined;
    const recorded = info.output as RecordedStep | null;
    if (step === 'attempt' && !steps.some((s) => s.name === 'attempt.started')) attempts++;
    if (recorded?.ok && recorded.cost) cost += recorded.cost;
    if (recorded?.ok && step === 'refine') iterations++;
    if (recorded?.ok && recorded.shape === 'value' && (step === 'attempt' || step === 'fallback')) {
      partial = recorded.value;
    }
    const startedAt = info.startedAtEpochMs ?? 0;
    trace.push({
      seq: trace.length + 1,
      state: STEP_STATE[step],
      iterationIndex: iterations,
      attempt: attempts,
      retryCount: iterations,
      ...(recorded && !recorded.ok ? { failureKind: recorded.failure.kind } : {}),
      startedAt,
      durationMs: Math.max(0, (info.completedAtEpochMs ?? startedAt) - startedAt),
      ...(recorded?.ok && recorded.cost ? { cost: recorded.cost } : {}),
    });
  }
  const where = inFlight ? `while ${inFlight} was in flight` : 'between steps';
  const message = `The run was cancelled through DBOS ${where}, after ${attempts} attempt(s).`;
  trace.push({
    seq: trace.length + 1,
    state: 'aborted',
    iterationIndex: iterations,
    attempt: attempts,
    decision: 'aborted',
    retryCount: iterations,
    rationale: message,
    startedAt: Date.now(),
    durationMs: 0,
  });
  return {
    status: 'aborted',
    ok: false,
    iterations,
    attempts,
    cost,
    rationale: message,
    trace,
    partial: partial as C | undefined,
    error: {
      kind: 'aborted',
      state: inFlight ? STEP_STATE[inFlight] : (trace.at(-2)?.state ?? 'attempting'),
      attempts,
      ...(partial === undefined ? {} : { lastOutput: partial }),
      message,
    },
  };
}
