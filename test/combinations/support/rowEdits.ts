import type { CheckpointRecord } from 'loopchart';
import type { RowEditKind } from './faults.js';

// biome-ignore lint/suspicious/noExplicitAny: an edit reaches anywhere into the stored JSON
type Data = any;

/** Edits of a loop row's JSON that leave it no valid run (stored-rows.test.ts has each alone). */
const LOOP_EDITS: Record<Exclude<RowEditKind, 'truncated' | 'notObject'>, (data: Data) => void> = {
  retryCount: (data) => {
    data.snapshot.context.retryCount = 'lots';
  },
  emptyContext: (data) => {
    data.snapshot.context = { settings: data.snapshot.context.settings };
  },
  unknownState: (data) => {
    data.snapshot.value = 'nowhere';
    data.state = 'nowhere';
  },
  rationale: (data) => {
    if (data.trace.length === 0) throw new Error('no trace entry to edit');
    data.trace[0].rationale = 42;
  },
  negativeBound: (data) => {
    data.snapshot.context.settings.maxRetries = -1;
  },
  // not refused: the run must keep the bounds of its config (SPEC §14)
  inflatedBounds: (data) => {
    const { settings } = data.snapshot.context;
    settings.maxRetries = 50;
    settings.maxAttempts = 100;
    settings.idempotent = { attempt: true, refine: true, fallback: true };
  },
};

/** Edits of a pipeline record that leave it none. */
const PIPELINE_EDITS: Partial<Record<RowEditKind, (data: Data) => void>> = {
  retryCount: (data) => {
    data.context.stages.stage = null;
  },
  emptyContext: (data) => {
    data.context = {};
  },
  unknownState: (data) => {
    data.status = 'nowhere';
  },
};

/**
 * The row edited by hand: a loop row (or, with `pipeline`, a pipeline record) with one field
 * made invalid, its data cut short or not an object; an edit that does not apply to this row
 * cuts its data short instead, so every edit but `inflatedBounds` leaves a row to refuse.
 */
export function editedRow(
  row: CheckpointRecord,
  kind: RowEditKind,
  pipeline: boolean,
): CheckpointRecord {
  const cut = { ...row, data: row.data.slice(0, Math.floor(row.data.length / 2)) };
  if (kind === 'truncated') return cut;
  if (kind === 'notObject') return { ...row, data: '42' };
  const edit = pipeline ? PIPELINE_EDITS[kind] : LOOP_EDITS[kind];
  if (!edit) return cut;
  try {
    const data = JSON.parse(row.data);
    edit(data);
    return { ...row, data: JSON.stringify(data) };
  } catch {
    return cut;
  }
}

/** An edit a reader may take (the run then keeps its config's bounds) rather than refuse. */
export const mayBeTaken = (kind: RowEditKind, pipeline: boolean) =>
  kind === 'inflatedBounds' && !pipeline;
