import type { Tables } from './postgresTables.js';

const MS = "* interval '1 millisecond'";
const EPOCH_MS = (column: string) => `(extract(epoch FROM ${column}) * 1000)::float8`;

/** The queue's statements. Times come from the server's clock, so workers' clocks may differ. */
export function queueSql(t: Tables) {
  return {
    /** $1 run ids, $2 loops, $3 inputs (JSON text or NULL): one statement, all or none. */
    enqueue: `INSERT INTO ${t.queue} (run_id, loop, input, state, ready_at)
      SELECT run_id, loop, input, 'queued', clock_timestamp()
      FROM unnest($1::text[], $2::text[], $3::text[]) AS runs (run_id, loop, input)`,
    /**
     * Leases up to $3 claimable runs of the loops $2 to $1 for $4 ms. A row another worker is
     * claiming or saving is locked, and skipped.
     */
    claim: `WITH picked AS (
        SELECT run_id FROM ${t.queue}
        WHERE ready_at <= clock_timestamp() AND loop = ANY($2::text[])
        ORDER BY ready_at
        LIMIT $3
        FOR UPDATE SKIP LOCKED
      )
      UPDATE ${t.queue} AS q SET state = 'leased', lease_owner = $1, lease_token = q.lease_token + 1,
        claims = q.claims + 1, ready_at = clock_timestamp() + $4::integer ${MS},
        updated_at = clock_timestamp()
      FROM picked WHERE q.run_id = picked.run_id
      RETURNING q.run_id, q.loop, q.input, q.event, q.event_seq, q.abort_reason, q.lease_token,
        q.claims, ${EPOCH_MS('q.ready_at')} AS expires_at`,
    /**
     * The stored seq of runs just claimed. A statement after the claim sees every save committed
     * before it, and none can follow from the previous holder: its token no longer matches.
     */
    seqs: `SELECT run_id, seq FROM ${t.checkpoints} WHERE run_id = ANY($1::text[])`,
    /** $1 run ids and $2 tokens of the leases to extend by $3 ms; returns those still held. */
    renew: `UPDATE ${t.queue} AS q SET ready_at = clock_timestamp() + $3::integer ${MS}
      FROM unnest($1::text[], $2::integer[]) AS held (run_id, token)
      WHERE q.run_id = held.run_id AND q.lease_token = held.token AND q.state = 'leased'
        AND q.ready_at > clock_timestamp()
      RETURNING q.run_id, q.lease_token, q.abort_reason, ${EPOCH_MS('q.ready_at')} AS expires_at`,
    /** $1 run, $2 token, $3 new state, $4 delay in ms (queued), $5 outcome, $6 error. */
    release: `UPDATE ${t.queue} SET state = $3::text,
        ready_at = CASE WHEN $3::text = 'queued' THEN clock_timestamp() + $4::integer ${MS} END,
        event = CASE WHEN $3::text = 'queued' THEN event END,
        event_seq = CASE WHEN $3::text = 'queued' THEN event_seq END,
        claims = CASE WHEN $3::text = 'paused' THEN 0 ELSE claims END,
        outcome = $5, error = $6, updated_at = clock_timestamp()
      WHERE run_id = $1 AND lease_token = $2 AND state = 'leased'`,
    /** The entry and its checkpoint, locked, for `send` to decide in one transaction. */
    lockForSend: `SELECT q.state, q.event IS NOT NULL AS answered, q.outcome,
        c.seq, c.status, c.state AS checkpoint_state
      FROM ${t.queue} AS q LEFT JOIN ${t.checkpoints} AS c ON c.run_id = q.run_id
      WHERE q.run_id = $1 FOR UPDATE OF q`,
    /** Makes a paused run claimable with the answer $2 to its checkpoint $3. */
    answer: `UPDATE ${t.queue} SET state = 'queued', ready_at = clock_timestamp(), event = $2,
        event_seq = $3, updated_at = clock_timestamp() WHERE run_id = $1`,
    abort: `UPDATE ${t.queue} SET abort_reason = $2, updated_at = clock_timestamp() WHERE run_id = $1`,
    entry: `SELECT run_id, loop, state, lease_owner, claims, outcome, error,
        ${EPOCH_MS('enqueued_at')} AS enqueued_at, ${EPOCH_MS('updated_at')} AS updated_at
      FROM ${t.queue} WHERE run_id = $1`,
    counts: `SELECT state, count(*)::int AS n FROM ${t.queue} GROUP BY state`,
  };
}
