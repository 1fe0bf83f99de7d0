import { activeLeaves, appendStep } from './activeLeaves.js';
import type { InspectionMessage } from './parseInspection.js';
import { applySnapshot, type EventSummary, type RunView, valueText } from './runView.js';

/** Runs kept in memory; past this the oldest finished run (else the oldest run) is dropped. */
export const DEFAULT_MAX_RUNS = 100;
/** Inspection events kept per run (oldest dropped first, and counted in `droppedEvents`). */
export const DEFAULT_MAX_EVENTS_PER_RUN = 500;
/** Events each run view carries to the page. */
const RECENT_EVENTS = 50;
/** Actor names kept per run (the newest named): a run may start any number of child actors. */
export const MAX_ACTOR_NAMES = 256;

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
  /** A child machine's own run (a pipeline's stage loop), when the message was about it. */
  linked?: { run: RunView; definition?: string };
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
      record.names.delete(message.sessionId);
      record.names.set(message.sessionId, name);
      if (record.names.size > MAX_ACTOR_NAMES) {
        record.names.delete(record.names.keys().next().value as string);
      }
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
    const linked = isRoot ? undefined : this.#ingestLinked(source, message, record, now);
    if (linked) evicted.push(...linked.evicted);
    return {
      run: record.view,
      ...(definition === undefined ? {} : { definition }),
      ...(linked ? { linked: linked.linked } : {}),
      evicted,
    };
  }

  /**
   * A child actor that is a machine of its own (a pipeline's stage loop, an agent's planner) is
   * a run of its own too, linked to its root's run: its snapshots draw it, its events list it.
   */
  #ingestLinked(source: string, message: InspectionMessage, root: RunRecord, now: number) {
    const id = `${source}/${message.sessionId}`;
    let record = this.#runs.get(id);
    let definition: string | undefined;
    let evicted: string[] = [];
    if (!record && message.type === '@xstate.actor' && isMachine(message.definition)) {
      const made = this.#runFor(source, message.sessionId, now);
      record = made.record;
      evicted = made.evicted;
      definition = message.definition;
      const name = message.name ?? message.sessionId;
      record.view = {
        ...record.view,
        machineId: name,
        label: `${name} (${root.view.label})`,
        parentId: root.view.id,
      };
      record.names.set(message.sessionId, name);
    }
    if (!record) return undefined;
    if (message.type === '@xstate.snapshot') {
      record.view = applySnapshot(record.view, message.snapshot);
      const steps = appendStep(record.view.steps, activeLeaves(record.view.value));
      record.view = { ...record.view, steps };
    }
    if (message.type !== '@xstate.actor' || definition !== undefined) {
      this.#remember(record, message, now);
    }
    const linked = { run: record.view, ...(definition === undefined ? {} : { definition }) };
    return { linked, evicted };
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
    chart: Partial<Pick<RunView, 'chartId' | 'chartError' | 'chartPending'>>,
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

  /** What a run holds in memory, counted (each count has a bound); `undefined` for no such run. */
  held(runId: string): { events: number; actorNames: number } | undefined {
    const record = this.#runs.get(runId);
    return record && { events: record.events.length, actorNames: record.names.size };
  }

  list(): RunView[] {
    return [...this.#runs.values()].map((record) => record.view);
  }

  #runFor(source: string, rootId: string, now: number): { record: RunRecord; evicted: string[] } {
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

/** Whether a reported definition is a state machine's (it has states), not a promise's or a callback's. */
function isMachine(definition: string | undefined): definition is string {
  if (definition === undefined) return false;
  try {
    const config: unknown = JSON.parse(definition);
    return typeof config === 'object' && config !== null && 'states' in config;
  } catch {
    return false;
  }
}
