import { glanceLoop } from '../../core/chart/loopView.js';
import { toJsonSafe } from './toJsonSafe.js';
import { worstCaseBadge } from './worstCaseBadge.js';

/** What the viewer shows of one run. Every field that came from the run is untrusted data. */
export interface RunView {
  /** `<connection>/<root session id>`: two processes both have an `x:0`. */
  id: string;
  /** The machine's id and the run's number, e.g. `loop #3`. */
  label: string;
  machineId: string;
  /** The run this one is part of: a pipeline's stage loops are runs linked to the pipeline's. */
  parentId?: string;
  chartId?: string;
  chartError?: string;
  /** The chart is being laid out again for the path the run took since `chartId` was drawn. */
  chartPending?: boolean;
  status: 'active' | 'done' | 'error' | 'stopped';
  /** False once the reporting connection closed. */
  connected: boolean;
  /** The root's state value (`'attempting'`, or nested objects). */
  value?: unknown;
  retryCount?: number;
  maxRetries?: number;
  /** The loop's certificate as a badge: `worst case: 7 calls, cost 0.42, 3 min`. */
  worstCase?: string;
  candidate?: unknown;
  verdict?: unknown;
  pending?: unknown;
  trace: unknown[];
  /** The root's active leaf states after each change, oldest first (newest `MAX_STEPS` kept). */
  steps?: string[][];
  /** The `LoopOutcome` (or any machine's output) once done. */
  output?: unknown;
  errorMessage?: string;
  startedAt: number;
  updatedAt: number;
  eventCount: number;
  droppedEvents: number;
  recentEvents: EventSummary[];
  /** A report's run re-decided under candidate configs (`renderRunReport`'s `whatIf`). */
  whatIf?: { candidate: string; text: string }[];
}

/** One inspection event as the viewer keeps it. */
export interface EventSummary {
  at: number;
  kind: 'actor' | 'event' | 'snapshot';
  /** The actor's name or session id. */
  actor: string;
  /** The event type, or for a snapshot the state value it reached. */
  type: string;
}

/** Trace entries sent to the page, newest kept. */
export const MAX_TRACE_SHOWN = 1000;
const STATUSES = new Set(['active', 'done', 'error', 'stopped']);

/** The view of a run after its root actor reported `snapshot` (untrusted JSON). */
export function applySnapshot(view: RunView, snapshot: Record<string, unknown>): RunView {
  const loop = glanceLoop(snapshot);
  const status = String(snapshot.status);
  const trace = loop.trace.slice(-MAX_TRACE_SHOWN);
  const errorMessage = snapshot.error === undefined ? undefined : messageOf(snapshot.error);
  return {
    ...view,
    status: STATUSES.has(status) ? (status as RunView['status']) : view.status,
    value: toJsonSafe(snapshot.value),
    retryCount: loop.iterations,
    maxRetries: loop.maxRetries,
    ...worstCaseOf(view, snapshot),
    candidate: toJsonSafe(loop.candidate),
    verdict: toJsonSafe(loop.verdict),
    pending: toJsonSafe(loop.pending),
    trace: trace.map((entry) => toJsonSafe(entry)),
    output: toJsonSafe(snapshot.output),
    errorMessage,
  };
}

/** The badge is worked out once per run, from its first snapshot of a loop. */
function worstCaseOf(view: RunView, snapshot: Record<string, unknown>): { worstCase?: string } {
  if (view.worstCase !== undefined) return { worstCase: view.worstCase };
  const badge = worstCaseBadge(view.machineId, snapshot.context);
  return badge === undefined ? {} : { worstCase: badge };
}

/** A short text for a state value: `attempting`, `parent.child`. */
export function valueText(value: unknown, depth = 0): string {
  if (typeof value === 'string') return value.slice(0, 200);
  const fields = record(value);
  if (!fields || depth > 8) return '';
  return Object.entries(fields)
    .map(([key, inner]) => {
      const rest = valueText(inner, depth + 1);
      return rest ? `${key}.${rest}` : key;
    })
    .join(', ')
    .slice(0, 200);
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function messageOf(error: unknown): string {
  const message = record(error)?.message;
  if (typeof message === 'string') return message.slice(0, 4000);
  return (typeof error === 'string' ? error : (JSON.stringify(toJsonSafe(error)) ?? '')).slice(
    0,
    4000,
  );
}
