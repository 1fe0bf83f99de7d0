import { type Command, Option } from 'commander';
import type { PendingRequest } from '../../machines/loopContext.js';
import { isCheckpointError } from '../../persistence/CheckpointError.js';
import {
  type CheckpointRecord,
  type CheckpointStore,
  RUN_STATUSES,
  type RunSummary,
} from '../../persistence/CheckpointStore.js';
import { type Checkpoint, decodeCheckpoint } from '../../persistence/checkpointFormat.js';
import { type PipelineRecord, pipelineRecordOf } from '../../pipeline/pipelineRecord.js';
import type { TraceEntry } from '../../trace.js';
import { type CliOutput, cliOutput } from '../cliOutput.js';
import { integerFlag } from '../flags/integerFlag.js';
import { formatMs, oneLine } from '../format.js';
import {
  openRunStore,
  type RunStoreFlags,
  runStoreName,
  runStoreOptions,
} from '../openRunStore.js';

/** `loopchart runs list` and `loopchart runs show <id>`: checkpointed runs in a store. */
export function register(program: Command): void {
  const runs = program
    .command('runs')
    .description('list and inspect checkpointed runs in a SQLite file or on PostgreSQL');
  runStoreOptions(runs.command('list').description('list runs, most recently saved first'))
    .addOption(new Option('--status <status>', 'only runs in this status').choices(RUN_STATUSES))
    .option('--limit <n>', 'at most n runs, 1–100000', integerFlag(1, 100_000))
    .option('--json', 'print JSON')
    .action(async (options: ListFlags, command: Command) => {
      const out = cliOutput(command);
      const rows = await withStore(command, options, (store) =>
        store.list({
          ...(options.status ? { status: options.status } : {}),
          ...(options.limit === undefined ? {} : { limit: options.limit }),
        }),
      );
      if (options.json) out.out(JSON.stringify(rows, null, 2));
      else printList(out, rows, runStoreName(options.db));
    });
  runStoreOptions(
    runs
      .command('show')
      .description('show a run: its status, what it waits for, its outcome and its trace')
      .argument('<runId>', 'the run id'),
  )
    .option('--json', 'print the decoded checkpoint as JSON')
    .action(async (runId: string, options: ShowFlags, command: Command) => {
      const out = cliOutput(command);
      const record = await withStore(command, options, (store) => store.load(runId));
      if (!record) fail(command, `runs: no run '${safe(runId)}' in ${runStoreName(options.db)}`);
      const pipeline = pipelineRecordOf(record.data);
      if (pipeline) {
        if (options.json) out.out(JSON.stringify(pipeline, null, 2));
        else printPipeline(out, record, pipeline);
        return;
      }
      let checkpoint: Checkpoint;
      try {
        checkpoint = decodeCheckpoint(record);
      } catch (error) {
        if (!isCheckpointError(error)) throw error;
        fail(command, `runs: ${error.message} (${error.code})`);
      }
      if (options.json) out.out(JSON.stringify(checkpoint, null, 2));
      else printRun(out, checkpoint);
    });
}

interface ListFlags extends RunStoreFlags {
  status?: (typeof RUN_STATUSES)[number];
  limit?: number;
  json?: boolean;
}

interface ShowFlags extends RunStoreFlags {
  json?: boolean;
}

async function withStore<T>(
  command: Command,
  { db, schema }: RunStoreFlags,
  use: (store: CheckpointStore) => Promise<T>,
): Promise<T> {
  let store: CheckpointStore | string | undefined;
  try {
    // opened here, so other commands never load the native module or the Postgres client
    store = await openRunStore(db, { schema, write: false });
    if (typeof store === 'string') return fail(command, `runs: ${store}`);
    return await use(store);
  } catch (error) {
    if (!isSqliteError(error)) throw error;
    return usage(
      command,
      `runs: --db ${db} is not a loopchart runs database (${error.message}); pass --db <file> to a runs.db that loopchart wrote`,
    );
  } finally {
    if (typeof store === 'object') await store.close?.();
  }
}

/** better-sqlite3's errors carry a `SQLITE_…` code: the file is no database, or not ours. */
function isSqliteError(error: unknown): error is Error {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === 'string' && code.startsWith('SQLITE_');
}

function usage(command: Command, message: string): never {
  command.error(message, { exitCode: 2, code: 'loopchart.runs.usage' });
  throw new Error(message); // command.error exits (or throws with exitOverride)
}

function fail(command: Command, message: string): never {
  command.error(message, { exitCode: 1, code: 'loopchart.runs.failed' });
  throw new Error(message); // command.error exits (or throws with exitOverride)
}

function printList(out: CliOutput, rows: RunSummary[], file: string) {
  if (rows.length === 0) {
    out.out(`no runs in ${file}`);
    return;
  }
  const table = rows.map((row) => [
    safe(row.runId),
    row.status,
    safe(row.state),
    `#${row.seq}`,
    new Date(row.updatedAt).toISOString(),
    safe(row.machineId),
  ]);
  const head = ['RUN', 'STATUS', 'STATE', 'CHECKPOINT', 'SAVED', 'MACHINE'];
  const widths = head.map((h, i) =>
    Math.max(h.length, ...table.map((cells) => cells[i]?.length ?? 0)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  out.out(out.c.bold(line(head)));
  for (const cells of table) out.out(line(cells));
}

function printRun(out: CliOutput, checkpoint: Checkpoint) {
  const { c } = out;
  const { runId, status, state, seq, savedAt, machineId } = checkpoint;
  out.out(`${c.bold(`run ${safe(runId)}`)}: ${status} in ${safe(state)}`);
  out.out(
    c.dim(
      `machine ${safe(machineId)}, checkpoint #${seq}, saved ${new Date(savedAt).toISOString()}`,
    ),
  );
  if (checkpoint.pending) printPending(out, checkpoint.pending);
  const output = checkpoint.snapshot.output as
    | {
        status?: string;
        rationale?: string;
        attempts?: number;
        iterations?: number;
        candidate?: unknown;
        partial?: unknown;
      }
    | undefined;
  if (output?.status) {
    out.out(
      `outcome: ${c.bold(safe(output.status))} after ${output.attempts} attempt(s), ${output.iterations} refine cycle(s)`,
    );
    if (output.rationale) out.out(`  ${safe(oneLine(output.rationale, 300))}`);
    if (output.candidate !== undefined) out.out(`candidate: ${quote(output.candidate)}`);
    if (output.partial !== undefined) out.out(`partial: ${quote(output.partial)}`);
  }
  printTrace(out, checkpoint.trace);
}

function printPending(out: CliOutput, pending: PendingRequest) {
  if (pending.kind === 'clarification') {
    out.out(`waits for an answer to: ${quote(pending.question)}`);
    if (pending.options?.length) out.out(`  options: ${pending.options.map(quote).join(', ')}`);
    out.out(out.c.dim('  continue with the event clarification.answer (resumeLoop)'));
    return;
  }
  out.out(`waits for a review (${pending.reason}) of the candidate ${quote(pending.candidate)}`);
  if (pending.verdict) out.out(`  verdict: ${quote(pending.verdict)}`);
  out.out(
    out.c.dim('  continue with review.continue, review.modify, review.retry or review.abort'),
  );
}

function printTrace(out: CliOutput, trace: readonly TraceEntry[]) {
  out.out(`trace (${trace.length} entries):`);
  for (const entry of trace) {
    const what = entry.decision ? `→ ${entry.decision}` : entry.state;
    const failure = entry.failureKind ? ` ${entry.failureKind} failure` : '';
    const why = entry.rationale ? `  ${safe(oneLine(entry.rationale, 160))}` : '';
    out.out(
      `  ${String(entry.seq).padStart(3)}  ${safe(what).padEnd(24)} attempt ${entry.attempt}, retry ${entry.retryCount}, ${formatMs(entry.durationMs)}${failure}${out.c.dim(why)}`,
    );
  }
}

function printPipeline(out: CliOutput, row: CheckpointRecord, record: PipelineRecord) {
  out.out(
    `${out.c.bold(`pipeline run ${safe(row.runId)}`)}: ${record.status} in ${safe(record.state)}`,
  );
  out.out(out.c.dim(`pipeline ${safe(row.machineId)}, checkpoint #${row.seq}`));
  const { pause, stages } = record.context ?? {};
  if (pause) out.out(`waits for a person (${pause.reason}): ${safe(oneLine(pause.message, 300))}`);
  for (const [id, stage] of Object.entries(stages ?? {})) {
    const loop = stage.loopStatus ? `, loop ${stage.loopStatus}` : '';
    out.out(
      `  layer ${stage.layer}  ${safe(id).padEnd(20)} ${stage.status}${loop} (${stage.attempts} attempt(s))`,
    );
  }
}

/** Untrusted text (candidates, questions, ids) for a terminal: no control characters. */
function safe(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are what we remove
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '�');
}

function quote(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return safe(oneLine(text, 200));
}
