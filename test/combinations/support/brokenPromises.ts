import { LOOP_STATUSES, type LoopOutcome, OK_STATUSES } from 'loopchart';
import { type Combination, costUnit, deadlineOf, type Step } from './combination.js';
import type { CombinationRun } from './runCombination.js';

/** A line about a refused call or edited row whose stored row changed. */
const ROW_CHANGED = /changed the stored row|refused was changed/;

const isStatus = (status: string | undefined) =>
  (LOOP_STATUSES as readonly string[]).includes(status ?? '');

/** How a run is checked: against its time budget, and against what `onEvent` saw of it. */
export interface CheckOptions {
  timed?: boolean;
  /** False for a host that gives the run no `onEvent` (its events are not compared). */
  watched?: boolean;
}

/** What a broken promise broke: a bound (SPEC §3, time included), an effect run twice, a refused row changed, or else. */
export interface Problems {
  bounds: string[];
  effects: string[];
  rows: string[];
  other: string[];
}

/** SPEC §3's bounds, the ledger's account and the time budget; one line per broken promise. */
export function brokenPromises(c: Combination, run: CombinationRun, options: CheckOptions = {}) {
  return Object.values(problemsOf(c, run, options)).flat();
}

/** The broken promises of a run, by what they broke. */
export function problemsOf(
  c: Combination,
  run: CombinationRun,
  { timed = true, watched = true }: CheckOptions = {},
): Problems {
  const { outcome, ledger } = run;
  const bounds: string[] = [];
  const rows = run.problems.filter((line) => ROW_CHANGED.test(line));
  const other = run.problems.filter((line) => !ROW_CHANGED.test(line));
  if (!isStatus(outcome.status)) other.push(`status ${outcome.status}`);
  if (outcome.ok !== (OK_STATUSES as readonly string[]).includes(outcome.status))
    other.push('ok disagrees');
  if (!outcome.ok && outcome.error.kind !== outcome.status) other.push('error.kind disagrees');
  if (outcome.attempts > run.maxAttempts) bounds.push(`${outcome.attempts} attempts > maxAttempts`);
  if (ledger.attemptNumbers.size > run.maxAttempts)
    bounds.push('more attempt invocations than maxAttempts');
  if (outcome.iterations > run.maxRetries)
    bounds.push(`${outcome.iterations} refine cycles > maxRetries`);
  const effects = repeatedEffects(c, run);
  other.push(...costProblems(run), ...retryAfterProblems(run));
  const cleanRun = run.crashes === 0 && run.reruns === 0 && !run.standIn;
  const budget = reservationProblems(c, run, cleanRun);
  bounds.push(...budget.bounds);
  effects.push(...budget.called);
  other.push(...budget.other);
  const uncalled =
    run.cancelledInFlight &&
    !outcome.ok &&
    outcome.error.state === 'attempting' &&
    outcome.attempts === ledger.attemptCalls + 1;
  if (cleanRun && outcome.attempts !== ledger.attemptCalls && !uncalled)
    other.push(`outcome.attempts ${outcome.attempts}, but ${ledger.attemptCalls} attempt calls`);
  if (!run.standIn) other.push(...traceProblems(c, run, watched));
  // Node fires no timer sooner than 1 ms after it is set (a 0 ms timer set in a tick waits 1 ms),
  // so each timer that fired may add a millisecond no config asked for
  if (timed && run.elapsedMs > run.budgetMs + run.firings) {
    bounds.push(
      `took ${run.elapsedMs} ms of simulated time, over its budget of ${run.budgetMs} ms (${run.firings} timers fired)`,
    );
  }
  if (outcome.status === 'ceiling_stop' && outcome.error.cap === 'deadlineMs')
    other.push(...deadlineProblems(c, run));
  return { bounds, effects, rows, other };
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
 * each run of its loop (an attempt's retry has a number of its own). A crash takes the run back
 * to its last saved checkpoint, so a refine may repeat both its call and its retry, whose record
 * was not saved.
 */
function repeatedEffects(c: Combination, run: CombinationRun): string[] {
  const problems: string[] = [];
  const loops = 1 + run.reruns;
  for (const [key, count] of run.ledger.effects) {
    const step = key.split(':')[0] as 'attempt' | 'refine' | 'fallback';
    const perLoop = c.idempotent[step] && step === 'refine' ? 2 : 1;
    const allowed = (loops + (c.idempotent[step] ? run.crashes : 0)) * perLoop;
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

/** A trace entry of maxCost's refusal of a step before its call (costReservation.ts). */
const REFUSED =
  /^(attempt|validate|refine|fallback) was not called: (its reserved cost|the .* spent has reached maxCost)/;

/** The trace's entries of steps maxCost refused to call. */
export function budgetRefusals(trace: LoopOutcome['trace']) {
  return trace.filter(
    (entry) => entry.decision === undefined && REFUSED.test(entry.rationale ?? ''),
  );
}

const STEP_STATE = {
  validate: 'validating',
  refine: 'refining',
  fallback: 'fallingBack',
} as const;

/**
 * maxCost's reservation (SPEC §15): when every call reported no more than its step's estimate,
 * the run spent no more than maxCost; a run refused by budget ends `budget_stop`, and (with no
 * crash or rerun to replay it) the step it refused was never called.
 */
function reservationProblems(c: Combination, run: CombinationRun, cleanRun: boolean) {
  const { outcome, ledger } = run;
  const problems = { bounds: [] as string[], called: [] as string[], other: [] as string[] };
  const estimates = c.costEstimates;
  if (c.maxCost !== undefined && estimates !== undefined) {
    const maxCost = c.maxCost * costUnit(c);
    const honest = Object.entries(ledger.mostReported).every(
      ([step, most]) => most <= (estimates[step as Step] ?? 0) * costUnit(c),
    );
    if (honest && outcome.cost > maxCost)
      problems.bounds.push(`cost ${outcome.cost} > maxCost ${maxCost} with honest estimates`);
    const exact = cleanRun && !run.cancelledInFlight;
    if (honest && exact && ledger.costReported > maxCost)
      problems.bounds.push(`the steps reported ${ledger.costReported} > maxCost ${maxCost}`);
  }
  const refusals = budgetRefusals(outcome.trace);
  if (refusals.length > 1) problems.other.push(`${refusals.length} refusals by budget`);
  const [refusal] = refusals;
  if (refusal === undefined) return problems;
  // a run may yet end otherwise while the save of its budget_stop is pending (`waitingFor`)
  const unsaved = !outcome.ok && outcome.error.waitingFor !== undefined;
  if (outcome.status !== 'budget_stop' && !unsaved)
    problems.other.push(`refused by budget (${refusal.rationale}), but ended ${outcome.status}`);
  if (!cleanRun) return problems;
  const step = (REFUSED.exec(refusal.rationale ?? '') as RegExpExecArray)[1] as Step;
  if (step === 'attempt') {
    if (ledger.attemptNumbers.has(refusal.attempt))
      problems.called.push(`attempt ${refusal.attempt} was refused by budget, yet called`);
    return problems;
  }
  // each call of the step has its entry in the trace; the refused one's must not be a call
  const entries = outcome.trace.filter((e) => e.state === STEP_STATE[step] && e !== refusal);
  if (ledger.stepCalls[step] > entries.length)
    problems.called.push(
      `${step} was refused by budget, yet called: ${ledger.stepCalls[step]} calls for ${entries.length} other entries`,
    );
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
  // Known failure U1 (RELIABILITY.md): a run whose deadline ran out with a save pending reports
  // ceiling_stop, but its trace still ends with the decision it reached in memory, unsaved (or
  // with none, when the save pending was of a step begun before any decision)
  const unsaved = !outcome.ok && outcome.error.waitingFor !== undefined;
  const last = decisions.at(-1)?.decision;
  if (unsaved && last !== outcome.status) run.knownU1 += 1;
  else if (decisions.at(-1)?.decision !== outcome.status)
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
