import { type Command, Option } from 'commander';
import type { PendingRequest } from '../../../core/chart/loopContext.js';
import type { TraceEntry } from '../../../core/vocabulary/trace.js';
import {
  decodePipelineRecord,
  type PipelineRecord,
  pipelineRecordOf,
} from '../../../runners/pipeline/pipelineRecord.js';
import { isCheckpointError } from '../../../stores/kit/CheckpointError.js';
import {
  type CheckpointRecord,
  RUN_STATUSES,
  type RunSummary,
} from '../../../stores/kit/CheckpointStore.js';
import { type Checkpoint, decodeCheckpoint } from '../../../stores/kit/checkpointFormat.js';
import { type CliOutput, cliOutput } from '../cliOutput.js';
import { integerFlag } from '../flags/integerFlag.js';
import { formatMs, oneLine } from '../format.js';
import {
  type RunStoreFlags,
  runStoreName,
  runStoreOptions,
  usingRunStore,
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
      const rows = await usingRunStore(options, (store) =>
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
      const record = await usingRunStore(options, (store) => store.load(runId));
      if (!record) fail(command, `runs: no run '${safe(runId)}' in ${runStoreName(options.db)}`);
      let read: { pipeline: PipelineRecord } | { loop: Checkpoint };
      try {
        read = pipelineRecordOf(record.data)
          ? { pipeline: decodePipelineRecord(record) }
          : { loop: decodeCheckpoint(record) };
      } catch (error) {
        if (!isCheckpointError(error)) throw error;
        fail(command, `runs: ${error.message} (${error.code})`);
      }
      const shown = 'pipeline' in read ? read.pipeline : read.loop;
      if (options.json) out.out(JSON.stringify(shown, null, 2));
      else if ('pipeline' in read) printPipeline(out, record, read.pipeline);
      else printRun(out, read.loop);
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
  if (checkpoint.parked) {
    out.out(
      `parked: its ${checkpoint.parked.step} was in flight when its process died and may have acted; settle it with loopchart runs reconcile ${safe(runId)} --happened <json> | --did-not-happen | --give-up`,
    );
  }
  const link = (checkpoint.snapshot.context.ledger as { link?: { kind: string; from: string } })
    ?.link;
  if (link) out.out(`${link.kind === 'fork' ? 'forked' : 'continued'} from run ${safe(link.from)}`);
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
