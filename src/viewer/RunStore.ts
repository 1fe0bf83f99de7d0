import { activeLeaves, appendStep } from './activeLeaves.js';
import type { InspectionMessage } from './parseInspection.js';
import { applySnapshot, type EventSummary, type RunView, valueText } from './runView.js';

/** Runs kept in memory; past this the oldest finished run (else the oldest run) is dropped. */
export const DEFAULT_MAX_RUNS = 100;
/** Inspection events kept per run (oldest dropped first, and counted in `droppedEvents`). */
export const DEFAULT_MAX_EVENTS_PER_RUN = 500;
/** Events each run view carries to the page. */
const RECENT_EVENTS = 50;

/** The bounds of a `RunStore`. */
export interface RunStoreLimits {
  maxRuns: number;
  maxEventsPerRun: number;
}

interface RunRecord {
  source: string;
  number: number;
  view: RunView;
  events: EventSummary[];
  names: Map<string, string>;
}

/** What one ingested message changed. */
export interface Ingested {
  run: RunView;
  /** The root machine's definition (raw config JSON), the first time it is reported. */
  definition?: string;
  evicted: string[];
}

/**
 * The viewer's memory: runs keyed by reporting connection and root session, each with at most
 * `maxEventsPerRun` event summaries and its latest view, and at most `maxRuns` runs.
 * @example const store = new RunStore(); store.ingest('c1', parseInspection(text)!);
 */
export class RunStore {
  readonly #runs = new Map<string, RunRecord>();
  readonly #limits: RunStoreLimits;
  #count = 0;

  constructor(limits: Partial<RunStoreLimits> = {}) {
    this.#limits = {
      maxRuns: limits.maxRuns ?? DEFAULT_MAX_RUNS,
      maxEventsPerRun: limits.maxEventsPerRun ?? DEFAULT_MAX_EVENTS_PER_RUN,
    };
  }

  /** Records one message from the connection `source`. */
  ingest(source: string, message: InspectionMessage, now = Date.now()): Ingested {
    const rootId = message.rootId ?? message.sessionId;
    const isRoot = message.sessionId === rootId;
    const { record, evicted } = this.#runFor(source, rootId, now);
    let definition: string | undefined;
    if (message.type === '@xstate.actor') {
      const name = message.name ?? message.sessionId;
      record.names.set(message.sessionId, name);
      if (isRoot && message.definition !== undefined && record.view.chartId === undefined) {
        definition = message.definition;
        record.view = { ...record.view, machineId: name, label: `${name} #${record.number}` };
      }
    }
    if (message.type === '@xstate.snapshot' && isRoot) {
      record.view = applySnapshot(record.view, message.snapshot);
      const steps = appendStep(record.view.steps, activeLeaves(record.view.value));
      record.view = { ...record.view, steps };
    }
    this.#remember(record, message, now);
    return { run: record.view, ...(definition === undefined ? {} : { definition }), evicted };
  }

  /** Marks the runs of a closed connection; returns those that changed. */
  disconnect(source: string): RunView[] {
    const changed: RunView[] = [];
    for (const record of this.#runs.values()) {
      if (record.source !== source || !record.view.connected) continue;
      record.view = { ...record.view, connected: false };
      changed.push(record.view);
    }
    return changed;
  }

  /** Attaches a drawn chart (or why it could not be drawn) to a run. */
  setChart(
    runId: string,
    chart: { chartId: string } | { chartError: string },
  ): RunView | undefined {
    const record = this.#runs.get(runId);
    if (!record) return undefined;
    record.view = { ...record.view, ...chart };
    return record.view;
  }

  get(runId: string): RunView | undefined {
    return this.#runs.get(runId)?.view;
  }

  /** The kept events of a run, oldest first. */
  events(runId: string): EventSummary[] {
    return [...(this.#runs.get(runId)?.events ?? [])];
  }

  list(): RunView[] {
    return [...this.#runs.values()].map((record) => record.view);
  }

  #runFor(source: string, rootId: string, now: number) {
    const id = `${source}/${rootId}`;
    const existing = this.#runs.get(id);
    if (existing) return { record: existing, evicted: [] };
    const evicted = this.#makeRoom();
    this.#count += 1;
    const record: RunRecord = {
      source,
      number: this.#count,
      names: new Map(),
      events: [],
      view: {
        id,
        label: `run #${this.#count}`,
        machineId: rootId,
        status: 'active',
        connected: true,
        trace: [],
        startedAt: now,
        updatedAt: now,
        eventCount: 0,
        droppedEvents: 0,
        recentEvents: [],
      },
    };
    this.#runs.set(id, record);
    return { record, evicted };
  }

  #makeRoom(): string[] {
    const evicted: string[] = [];
    while (this.#runs.size >= this.#limits.maxRuns) {
      const runs = [...this.#runs.values()];
      const victim = runs.find((run) => run.view.status !== 'active') ?? runs[0];
      if (!victim) break;
      this.#runs.delete(victim.view.id);
      evicted.push(victim.view.id);
    }
    return evicted;
  }

  #remember(record: RunRecord, message: InspectionMessage, now: number) {
    const actor = record.names.get(message.sessionId) ?? message.sessionId;
    const summary: EventSummary =
      message.type === '@xstate.actor'
        ? { at: now, kind: 'actor', actor, type: 'started' }
        : message.type === '@xstate.event'
          ? { at: now, kind: 'event', actor, type: message.event }
          : {
              at: now,
              kind: 'snapshot',
              actor,
              type: valueText(message.snapshot.value) || String(message.snapshot.status ?? ''),
            };
    record.events.push(summary);
    let dropped = 0;
    while (record.events.length > this.#limits.maxEventsPerRun) {
      record.events.shift();
      dropped += 1;
    }
    record.view = {
      ...record.view,
      updatedAt: now,
      eventCount: record.view.eventCount + 1,
      droppedEvents: record.view.droppedEvents + dropped,
      recentEvents: record.events.slice(-RECENT_EVENTS),
    };
  }
}
