import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { LoopOutcome, RunEvent } from 'loopchart';
import type { Combination } from './combination.js';

/** What a host saw while it drove one combination, besides the outcome. */
export interface RunState {
  /** Processes that "died" (a save failed) and were resumed. */
  crashes: number;
  /** Malformed answers refused, each with the stored row unchanged. */
  refusals: number;
  /** Live stretches of the run: the first, and one after each answer or resume. */
  segments: number;
  /** Stage runs a person asked for again (`pipeline.retry`): their effects may repeat. */
  reruns: number;
  /** Calls into the store (saves, loads), the harness's own included. */
  storeCalls: number;
  /** Rows edited by hand before a resume: refused `corrupt` (untouched), or taken with the config's bounds. */
  rowEdits: { refused: number; taken: number };
  /** Runs that ended `ceiling_stop` with a save still pending (`error.waitingFor`). */
  unsavedEnds: number;
  /** Of those, runs whose trace ends with the unsaved end (known failure U1, RELIABILITY.md). */
  knownU1: number;
  /** Calls into loopchart: each run, resume and refused answer. */
  calls: number;
  /** What `onEvent` delivered (plain and store hosts): outcome statuses, and `seq:decision` of each decision. */
  events: { outcomes: string[]; decisions: string[] };
  /** The OpenTelemetry SDK's tracer those hosts pass, and where its spans end up. */
  spans: { tracer: ReturnType<BasicTracerProvider['getTracer']>; exporter: InMemorySpanExporter };
  /** Promises a host checks itself (a pipeline's cross-check, an agent's shape), one line each. */
  problems: string[];
  /** The outcome is loopchart's stand-in for a stage whose loop never ended (a crash, an abort). */
  standIn: boolean;
  /**
   * A DBOS run cancelled while a step was in flight: DBOS journals a step when it ends, so the
   * outcome cannot tell whether that step was called (an attempt may count one call more) nor
   * what it reported (its cost may be missing), as with a loop aborted mid-step.
   */
  cancelledInFlight: boolean;
  /** The bounds the loop ran under (an agent's single-shot has its own). */
  maxAttempts: number;
  maxRetries: number;
}

/** A fresh run state for `c`, under its bounds (maxAttempts defaults per SPEC §4). */
export function newRunState(c: Pick<Combination, 'maxAttempts' | 'maxRetries'>): RunState {
  const maxAttempts = c.maxAttempts ?? Math.min(100, 2 * (c.maxRetries + 1));
  const { maxRetries } = c;
  return {
    crashes: 0,
    refusals: 0,
    segments: 1,
    reruns: 0,
    storeCalls: 0,
    rowEdits: { refused: 0, taken: 0 },
    unsavedEnds: 0,
    knownU1: 0,
    calls: 0,
    events: { outcomes: [], decisions: [] },
    spans: recordedSpans(),
    problems: [],
    standIn: false,
    cancelledInFlight: false,
    maxAttempts,
    maxRetries,
  };
}

function recordedSpans(): RunState['spans'] {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { tracer: provider.getTracer('combinations'), exporter };
}

/** What the plain and store hosts watch a run with: an `onEvent` recorder and a real tracer. */
export function observers(state: RunState) {
  return { onEvent: recorder(state), tracer: state.spans.tracer };
}

/** An `onEvent` that records what the property checks: outcomes and decisions. */
function recorder(state: RunState) {
  return (event: RunEvent) => {
    if (event.type === 'outcome') state.events.outcomes.push(event.outcome.status);
    if (event.type === 'decision')
      state.events.decisions.push(`${event.entry.seq}:${event.entry.decision}`);
  };
}

/** A loop outcome standing in for a stage that has none (aborted or cut short before its loop ended). */
export function standIn(state: RunState, status: 'aborted', message: string): LoopOutcome {
  state.standIn = true;
  return {
    status,
    ok: false,
    iterations: 0,
    attempts: 0,
    cost: 0,
    rationale: message,
    trace: [],
    partial: undefined,
    error: { kind: status, state: 'stage', attempts: 0, message },
  };
}
