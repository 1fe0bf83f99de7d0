import { LOOP_STATUSES, type LoopOutcome, OK_STATUSES } from 'loopchart';
import { type Combination, deadlineOf } from './combination.js';
import type { CombinationRun } from './runCombination.js';

/**
 * Wall-clock time, split the way the event loop sees it: time spent running code (loopchart's,
 * the steps', the harness's: `activeMs`), time inside the store (a loaded Postgres stalls now and
 * then: the server's time), and the rest, waiting. A run may wait as long as its budget allows
 * plus WAIT_SLACK_MS (timers fire a little late, more so on a loaded machine), so a wait that
 * lasts 20 ms longer than it should fails; it may compute up to CPU_PER_CALL_MS a call, far
 * above what any run needs (a gross guard: work in steps is bounded by the step counts).
 */
export const WAIT_SLACK_MS = { base: 15, perCall: 2 };
export const CPU_PER_CALL_MS = 250;

export function slackOf(run: CombinationRun): number {
  return WAIT_SLACK_MS.base + WAIT_SLACK_MS.perCall * run.calls;
}

/** How much longer than its budget a run waited (its computing and the store's time aside). */
export function marginOf(run: CombinationRun): number {
  return Math.round(run.elapsedMs - run.activeMs - run.storeMs - run.budgetMs);
}

const isStatus = (status: string | undefined) =>
  (LOOP_STATUSES as readonly string[]).includes(status ?? '');

/** How a run is checked: against its time budget, and against what `onEvent` saw of it. */
export interface CheckOptions {
  timed?: boolean;
  /** False for a host that gives the run no `onEvent` (its events are not compared). */
  watched?: boolean;
}

/** SPEC §3's bounds, the ledger's account and the time budget; one line per broken promise. */
export function brokenPromises(
  c: Combination,
  run: CombinationRun,
  { timed = true, watched = true }: CheckOptions = {},
): string[] {
  const { outcome, ledger } = run;
  const problems: string[] = [...run.problems];
  if (!isStatus(outcome.status)) problems.push(`status ${outcome.status}`);
  if (outcome.ok !== (OK_STATUSES as readonly string[]).includes(outcome.status))
    problems.push('ok disagrees');
  if (!outcome.ok && outcome.error.kind !== outcome.status) problems.push('error.kind disagrees');
  if (outcome.attempts > run.maxAttempts)
    problems.push(`${outcome.attempts} attempts > maxAttempts`);
  if (ledger.attemptNumbers.size > run.maxAttempts)
    problems.push('more attempt invocations than maxAttempts');
  if (outcome.iterations > run.maxRetries)
    problems.push(`${outcome.iterations} refine cycles > maxRetries`);
  problems.push(...repeatedEffects(c, run), ...costProblems(run), ...retryAfterProblems(run));
  const cleanRun = run.crashes === 0 && run.reruns === 0 && !run.standIn;
  const uncalled =
    run.cancelledInFlight &&
    !outcome.ok &&
    outcome.error.state === 'attempting' &&
    outcome.attempts === ledger.attemptCalls + 1;
  if (cleanRun && outcome.attempts !== ledger.attemptCalls && !uncalled)
    problems.push(`outcome.attempts ${outcome.attempts}, but ${ledger.attemptCalls} attempt calls`);
  if (!run.standIn) problems.push(...traceProblems(c, run, watched));
  if (timed && marginOf(run) > slackOf(run)) {
    problems.push(
      `waited ${marginOf(run)} ms longer than its budget of ${run.budgetMs} ms allows (slack ${slackOf(run)} ms; it took ${run.elapsedMs} ms: ${Math.round(run.activeMs)} ms computing, ${Math.round(run.storeMs)} ms in the store)`,
    );
  }
  if (timed && run.activeMs > CPU_PER_CALL_MS * run.calls)
    problems.push(`computed for ${Math.round(run.activeMs)} ms in ${run.calls} calls`);
  if (outcome.status === 'ceiling_stop' && outcome.error.cap === 'deadlineMs')
    problems.push(...deadlineProblems(c, run));
  return problems;
}

/** A deadline stop comes no sooner than the deadline and says truly what was in flight. */
function deadlineProblems(c: Combination, run: CombinationRun): string[] {
  const { outcome, ledger } = run;
  if (outcome.ok) return [];
  const { inFlight, mayHaveActed } = outcome.error;
  const problems: string[] = [];
  const deadline = deadlineOf(c) ?? 0;
  if (run.elapsedMs < deadline - 1)
    problems.push(`a deadline stop after ${run.elapsedMs} ms of ${deadline}`);
  if (inFlight === undefined) problems.push('a deadline stop that does not say what was in flight');
  if (inFlight === null && mayHaveActed) problems.push('nothing in flight, yet it may have acted');
  if (inFlight === 'attempt' && run.crashes === 0 && !ledger.attemptNumbers.has(outcome.attempts))
    problems.push(`attempt ${outcome.attempts} was in flight, but it was never called`);
  return problems;
}

/**
 * No non-idempotent step acts twice, unless a person asked for the stage to run again. An
 * idempotent one may run again after a crash, and a refine once more on a transient failure in
 * each run of its loop (an attempt's retry has a number of its own).
 */
function repeatedEffects(c: Combination, run: CombinationRun): string[] {
  const problems: string[] = [];
  const loops = 1 + run.reruns;
  for (const [key, count] of run.ledger.effects) {
    const step = key.split(':')[0] as 'attempt' | 'refine' | 'fallback';
    const perLoop = c.idempotent[step] && step === 'refine' ? 2 : 1;
    const allowed = loops * perLoop + (c.idempotent[step] ? run.crashes : 0);
    if (count > allowed)
      problems.push(
        `${key} acted ${count} times (allowed ${allowed}: ${run.crashes} crashes, ${run.reruns} reruns)`,
      );
  }
  for (const [stage, count] of run.ledger.companions) {
    if (count > 1 + run.crashes + run.reruns) problems.push(`stage ${stage} ran ${count} times`);
  }
  return problems;
}

/**
 * Cost sums: the outcome's cost is its trace's, and what the steps reported to a loop still
 * waiting for them (all of it, unless a crash lost a process's share, a stage ran again or a
 * DBOS cancel caught a step in flight).
 */
function costProblems(run: CombinationRun): string[] {
  const { outcome, ledger } = run;
  const traced = outcome.trace.reduce((sum, entry) => sum + (entry.cost ?? 0), 0);
  const problems: string[] = [];
  if (!run.standIn && traced !== outcome.cost)
    problems.push(`cost ${outcome.cost}, but its trace sums to ${traced}`);
  const exact = run.crashes === 0 && run.reruns === 0 && !run.standIn && !run.cancelledInFlight;
  if (exact ? outcome.cost !== ledger.costReported : outcome.cost > ledger.costReported)
    problems.push(`cost ${outcome.cost}, but the steps reported ${ledger.costReported}`);
  return problems;
}

/**
 * A 429's `retry-after-ms` is honoured: the next call comes no sooner. (A process that dies
 * before it saved the failure takes the 429 with it: its resumer re-runs the step in flight; and
 * a person may run a failed stage again at once.)
 */
function retryAfterProblems(run: CombinationRun): string[] {
  if (run.crashes > 0 || run.reruns > 0) return [];
  const calls = run.ledger.modelCalls;
  return calls.flatMap((call, i) => {
    const next = calls[i + 1];
    const waited = next ? next.at - call.at : Number.POSITIVE_INFINITY;
    return call.retryAfterMs !== undefined && waited < call.retryAfterMs - 1
      ? [`a call came ${waited} ms after a 429 asking for ${call.retryAfterMs} ms`]
      : [];
  });
}

/** One terminal decision, last, matching the status; and onEvent saw the run the trace tells. */
function traceProblems(c: Combination, run: CombinationRun, watched: boolean): string[] {
  const { outcome } = run;
  const problems: string[] = [];
  const decisions = outcome.trace.filter((entry) => entry.decision !== undefined);
  if (decisions.at(-1)?.decision !== outcome.status)
    problems.push(`the last decision is ${decisions.at(-1)?.decision}, not ${outcome.status}`);
  const stops = decisions.filter((e) => e.decision !== 'fallback' && isStatus(e.decision));
  if (stops.length > 1) problems.push(`${stops.length} terminal decisions`);
  if (!watched || c.host === 'actor' || c.host === 'pipeline' || c.host === 'agent')
    return problems;
  // onEvent, across every resume: one outcome event, and (with no crash to replay) exactly the
  // trace's decisions, in order
  const { outcomes, decisions: decided } = run.events;
  if (outcomes.join() !== outcome.status)
    problems.push(`onEvent saw outcomes [${outcomes.join()}], the run ended ${outcome.status}`);
  const traced = decisions.map((e) => `${e.seq}:${e.decision}`).join();
  if (run.crashes === 0 && decided.join() !== traced)
    problems.push(`onEvent saw decisions [${decided.join()}], the trace has [${traced}]`);
  return [...problems, ...spanProblems(run, outcome.trace)];
}

/**
 * The tracer's spans, once the run has settled (none may still be held): a run span for each live
 * stretch that ran, every step span under one of them, and a span for each step the trace records, plus at
 * most one a stretch for a step that stretch left in flight (a run that crashed may have more).
 */
function spanProblems(run: CombinationRun, trace: LoopOutcome['trace']): string[] {
  const spans = run.spans.exporter.getFinishedSpans();
  const runs = spans.filter((span) => span.name.startsWith('invoke_workflow '));
  const steps = spans.filter((span) => span.name.startsWith('loopchart.'));
  const problems: string[] = [];
  // a resume after a crash that finds the run paused or done runs nothing and makes no span
  const fewest = run.crashes === 0 ? run.segments : run.segments - run.crashes;
  if (runs.length < fewest || runs.length > run.segments)
    problems.push(
      `${runs.length} run spans for ${run.segments} live stretches (${run.crashes} crashes)`,
    );
  const runIds = new Set(runs.map((span) => span.spanContext().spanId));
  if (steps.some((span) => !runIds.has(span.parentSpanContext?.spanId ?? '')))
    problems.push('a step span is not under a run span');
  // a process that died had made spans for the steps after its last good save, which the
  // resumed run does again: only with no crash is the count exact
  const traced = trace.filter((entry) => entry.decision === undefined).length;
  const most = run.crashes === 0 ? traced + run.segments : Number.POSITIVE_INFINITY;
  if (steps.length < traced || steps.length > most)
    problems.push(
      `${steps.length} step spans for ${traced} steps in the trace (${run.segments} live stretches, ${run.crashes} crashes)`,
    );
  return problems;
}
