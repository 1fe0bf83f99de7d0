import type { Tables } from './postgresTables.js';

const COLUMNS = 'run_id, seq, status, state, machine_id, updated_at';

// Parameters of a save: $1 run_id, $2 seq, $3 status, $4 state, $5 machine_id, $6 updated_at,
// $7 data.
const VALUES = '$1::text, $2::integer, $3::text, $4::text, $5::text, $6::bigint, $7::text';
const SET =
  'seq = $2::integer, status = $3::text, state = $4::text, machine_id = $5::text, updated_at = $6::bigint, data = $7::text';

/** The statements of the `CheckpointStore` contract; each save is one atomic statement. */
export function checkpointSql(t: Tables) {
  const order = 'ORDER BY updated_at DESC, run_id';
  return {
    /** Seq 1: a run's first checkpoint, written only if the run has none. */
    insert: `INSERT INTO ${t.checkpoints} (${COLUMNS}, data) VALUES (${VALUES})
      ON CONFLICT (run_id) DO NOTHING`,
    /** Seq n: written only over checkpoint n − 1 (compare-and-set). */
    update: `UPDATE ${t.checkpoints} SET ${SET} WHERE run_id = $1 AND seq = $2::integer - 1`,
    /** Why a save wrote nothing: the stored seq. */
    diagnose: `SELECT seq FROM ${t.checkpoints} WHERE run_id = $1`,
    load: `SELECT ${COLUMNS}, data FROM ${t.checkpoints} WHERE run_id = $1`,
    list: `SELECT ${COLUMNS} FROM ${t.checkpoints} ${order} LIMIT $1`,
    listStatus: `SELECT ${COLUMNS} FROM ${t.checkpoints} WHERE status = $2 ${order} LIMIT $1`,
    /** A page of whole rows in run-id order ($1 after, $2 machine, $3 since, $4 until, $5 limit). */
    scan: `SELECT ${COLUMNS}, data FROM ${t.checkpoints}
      WHERE ($1::text IS NULL OR run_id > $1::text) AND ($2::text IS NULL OR machine_id = $2::text)
        AND ($3::bigint IS NULL OR updated_at >= $3::bigint)
        AND ($4::bigint IS NULL OR updated_at < $4::bigint)
      ORDER BY run_id LIMIT $5`,
    delete: `DELETE FROM ${t.checkpoints} WHERE run_id = $1`,
  };
}
