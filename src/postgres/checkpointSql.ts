import type { Tables } from './postgresTables.js';

const COLUMNS = 'run_id, seq, status, state, machine_id, updated_at';

// Parameters of a save: $1 run_id, $2 seq, $3 status, $4 state, $5 machine_id, $6 updated_at,
// $7 data, and for a fenced save $8 the lease token.
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
    fencedInsert: fenced(
      t,
      `INSERT INTO ${t.checkpoints} (${COLUMNS}, data) SELECT ${VALUES} FROM lease
       ON CONFLICT (run_id) DO NOTHING RETURNING seq`,
    ),
    fencedUpdate: fenced(
      t,
      `UPDATE ${t.checkpoints} SET ${SET}
       WHERE run_id = $1 AND seq = $2::integer - 1 AND EXISTS (SELECT 1 FROM lease) RETURNING seq`,
    ),
    /** Why a save wrote nothing: the stored seq, and whether (and by whom) the run is leased. */
    diagnose: `SELECT (SELECT seq FROM ${t.checkpoints} WHERE run_id = $1) AS seq,
        q.state, q.lease_owner, q.lease_token, q.ready_at > clock_timestamp() AS live
      FROM (SELECT 1) AS one LEFT JOIN ${t.queue} AS q ON q.run_id = $1`,
    load: `SELECT ${COLUMNS}, data FROM ${t.checkpoints} WHERE run_id = $1`,
    list: `SELECT ${COLUMNS} FROM ${t.checkpoints} ${order} LIMIT $1`,
    listStatus: `SELECT ${COLUMNS} FROM ${t.checkpoints} WHERE status = $2 ${order} LIMIT $1`,
    /** A page of whole rows in run-id order ($1 after, $2 machine, $3 since, $4 until, $5 limit). */
    scan: `SELECT ${COLUMNS}, data FROM ${t.checkpoints}
      WHERE ($1::text IS NULL OR run_id > $1::text) AND ($2::text IS NULL OR machine_id = $2::text)
        AND ($3::bigint IS NULL OR updated_at >= $3::bigint)
        AND ($4::bigint IS NULL OR updated_at < $4::bigint)
      ORDER BY run_id LIMIT $5`,
    /** A deleted run leaves the queue too, so no worker starts it again. */
    delete: `WITH q AS (DELETE FROM ${t.queue} WHERE run_id = $1 RETURNING 1),
        c AS (DELETE FROM ${t.checkpoints} WHERE run_id = $1 RETURNING 1)
      SELECT (SELECT count(*) FROM c)::int AS checkpoints, (SELECT count(*) FROM q)::int AS queued`,
  };
}

/**
 * Wraps a checkpoint write so that it happens only while the lease with token $8 holds, and, in
 * the same statement, marks the queue entry done when the checkpoint is final: a run ends once,
 * with no window in which a finished run could be claimed again. (A paused save does not release
 * the lease: a resumed run re-saves its pause before it takes the answer; the worker releases it.)
 * The lease row is locked, so a concurrent claim (which skips locked rows) cannot slip in between.
 */
function fenced(t: Tables, write: string): string {
  return `WITH lease AS (
      SELECT run_id FROM ${t.queue}
      WHERE run_id = $1 AND lease_token = $8::integer AND state = 'leased'
        AND ready_at > clock_timestamp()
      FOR UPDATE
    ), saved AS (${write}), settled AS (
      UPDATE ${t.queue} SET state = 'done', ready_at = NULL, event = NULL, event_seq = NULL,
        outcome = $4::text, updated_at = clock_timestamp()
      WHERE run_id = $1 AND $3::text = 'done' AND EXISTS (SELECT 1 FROM saved)
    )
    SELECT EXISTS (SELECT 1 FROM saved) AS saved, EXISTS (SELECT 1 FROM lease) AS leased`;
}
