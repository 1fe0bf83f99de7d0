import type { RunSummary, ScanOptions } from './CheckpointStore.js';

/** Whether a stored run matches a scan's machine and time filters (`CheckpointStore.scan`). */
export function inScan(
  run: Pick<RunSummary, 'machineId' | 'updatedAt'>,
  { machineId, since, until }: Omit<ScanOptions, 'limit'>,
): boolean {
  return (
    (machineId === undefined || run.machineId === machineId) &&
    (since === undefined || run.updatedAt >= since) &&
    (until === undefined || run.updatedAt < until)
  );
}
