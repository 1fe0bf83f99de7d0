import type { RunStatus, RunSummary } from './CheckpointStore.js';

/** A stored run as the SQL stores' `runs` table holds it (snake_case columns). */
export interface RunRow {
  run_id: string;
  seq: number;
  status: RunStatus;
  state: string;
  machine_id: string;
  /** ms since the epoch; Postgres hands a BIGINT back as a string. */
  updated_at: number | string;
  data?: string;
}

/** The summary `list` returns for a row. */
export function toRunSummary(row: RunRow): RunSummary {
  return {
    runId: row.run_id,
    seq: row.seq,
    status: row.status,
    state: row.state,
    machineId: row.machine_id,
    updatedAt: Number(row.updated_at),
  };
}
