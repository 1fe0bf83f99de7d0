import type { CheckpointStore, RunSummary } from '../../stores/kit/CheckpointStore.js';
import { parseWindow } from '../health/parseWindow.js';
import type { ListQuery } from './apiSchemas.js';
import type { RunList } from './runSchemas.js';

/** A cursor that does not decode, or a `since` that does not parse: the caller answers 400. */
export class ListQueryError extends Error {
  override readonly name = 'ListQueryError';
}

/**
 * One page of stored runs, most recently saved first (ties by run id), filtered by status, loop
 * and `since`. The cursor is the last row's (updatedAt, runId), so a page never repeats the rows
 * of the one before; a run saved again while paging moves to the top and is not seen twice.
 * @example const page = await listRuns(store, { status: 'paused', limit: 20 });
 */
export async function listRuns(
  store: CheckpointStore,
  query: ListQuery,
  now = Date.now(),
): Promise<RunList> {
  const window = parseWindow({ since: query.since }, now);
  if (typeof window === 'string') throw new ListQueryError(window);
  const { since } = window;
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const rows = (await store.list(query.status ? { status: query.status } : {}))
    .filter(
      (row) =>
        (query.loop === undefined || row.machineId === query.loop) &&
        (since === undefined || row.updatedAt >= since) &&
        (after === undefined || isAfter(row, after)),
    )
    .sort((a, b) => b.updatedAt - a.updatedAt || (a.runId < b.runId ? -1 : 1));
  const runs = rows.slice(0, query.limit).map(summaryOf);
  const last = runs.at(-1);
  return {
    runs,
    next: rows.length > query.limit && last ? encodeCursor(last) : null,
  };
}

type Position = { updatedAt: number; runId: string };

function isAfter(row: Position, cursor: Position): boolean {
  return (
    row.updatedAt < cursor.updatedAt ||
    (row.updatedAt === cursor.updatedAt && row.runId > cursor.runId)
  );
}

function summaryOf({ runId, seq, status, state, machineId, updatedAt }: RunSummary): RunSummary {
  return { runId, seq, status, state, machineId, updatedAt };
}

function encodeCursor({ updatedAt, runId }: Position): string {
  return Buffer.from(JSON.stringify([updatedAt, runId])).toString('base64url');
}

function decodeCursor(cursor: string): Position {
  try {
    const [updatedAt, runId] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown[];
    if (Number.isFinite(updatedAt) && typeof runId === 'string') {
      return { updatedAt: updatedAt as number, runId };
    }
  } catch {}
  throw new ListQueryError('cursor is not one this server gave out (pass the `next` of a page)');
}
