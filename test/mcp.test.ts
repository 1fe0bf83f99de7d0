import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { runLoop } from 'loopchart';
import type { AnswerResponse, LoopRunDetail, RunList } from 'loopchart/serve';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledCli } from './support/compiledCli.js';
import {
  dropSchema,
  PG_URL,
  postgresReachable,
  schemaName,
  seedSchema,
} from './support/postgresServer.js';
import { askLoop, draftLoop } from './support/reviewLoops.js';

// The SDK's own client spawns the real `loopchart mcp` (this checkout, compiled) over stdio.

const reachable = await postgresReachable();
const schema = schemaName('mcp');
const dir = mkdtempSync(join(tmpdir(), 'loopchart-mcp-'));
const db = join(dir, 'runs.db');
let cli: ReturnType<typeof compiledCli>;
let client: Client;

async function connect(args: string[]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli.main, 'mcp', '--db', db, ...args],
    stderr: 'pipe',
  });
  const connected = new Client({ name: 'loopchart-test', version: '1' });
  await connected.connect(transport);
  return connected;
}

const call = async <T>(name: string, args: Record<string, unknown>) => {
  const result = await client.callTool({ name, arguments: args });
  return result as {
    isError?: boolean;
    structuredContent?: T;
    content: { type: string; text: string }[];
  };
};

beforeAll(async () => {
  cli = compiledCli('mcp');
  const store = new SqliteCheckpointStore(db);
  await runLoop(draftLoop, 'memo', { store, runId: 'review' });
  await runLoop(askLoop, 'q3', { store, runId: 'question' });
  store.close();
  client = await connect(['--loops', cli.loops, '--answers']);
}, 120_000);
afterAll(async () => {
  await client?.close();
  cli?.remove();
  rmSync(dir, { recursive: true, force: true });
  if (reachable) await dropSchema(schema);
});

describe('loopchart mcp over stdio', () => {
  it('offers the four tools, each described for a model', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'answer_run',
      'list_runs',
      'loop_health',
      'show_run',
    ]);
    for (const tool of tools) expect(tool.description?.length).toBeGreaterThan(80);
    expect(tools.find((tool) => tool.name === 'list_runs')?.annotations?.readOnlyHint).toBe(true);
  });

  it('lists the paused runs', async () => {
    const result = await call<RunList>('list_runs', { status: 'paused' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent?.runs.map((run) => run.runId).sort()).toEqual([
      'question',
      'review',
    ]);
    expect(JSON.parse(result.content[0]?.text ?? '')).toEqual(result.structuredContent);
  });

  it('shows a run: the question, its options and the seq to answer with', async () => {
    const result = await call<LoopRunDetail>('show_run', { runId: 'question' });
    expect(result.structuredContent).toMatchObject({
      status: 'paused',
      pending: { kind: 'clarification', question: 'Which year?', options: ['2025', '2026'] },
      answerWith: ['clarification.answer', 'loop.abort'],
    });
  });

  it('answers the review, and the run proceeds', async () => {
    const shown = await call<LoopRunDetail>('show_run', { runId: 'review' });
    const seq = shown.structuredContent?.seq;
    const answered = await call<AnswerResponse>('answer_run', {
      runId: 'review',
      event: { type: 'review.continue' },
      ifSeq: seq,
      wait: true,
    });
    expect(answered.isError, answered.content[0]?.text).toBeFalsy();
    expect(answered.structuredContent?.run).toMatchObject({
      status: 'done',
      outcome: { status: 'proceed', candidate: 'draft of memo' },
    });
    const after = await call<LoopRunDetail>('show_run', { runId: 'review' });
    expect(after.structuredContent).toMatchObject({ status: 'done', state: 'proceed' });
  });

  it('refuses a stale seq as a tool error that says why, and the run stays answerable', async () => {
    const result = await call('answer_run', {
      runId: 'question',
      event: { type: 'clarification.answer', answer: '2025' },
      ifSeq: 1,
    });
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0]?.text ?? '').error.code).toBe('conflict');
    const still = await call<LoopRunDetail>('show_run', { runId: 'question' });
    expect(still.structuredContent?.status).toBe('paused');
  });

  it('reads loop health', async () => {
    const result = await call<{ loops: { loop: string; runs: number }[] }>('loop_health', {});
    expect(result.structuredContent?.loops.map((loop) => loop.loop)).toEqual(['ask', 'draft']);
  });

  it("serves a run's trace as a resource, and lists runs as resources", async () => {
    const { contents } = await client.readResource({ uri: 'loopchart://runs/review/trace' });
    const trace = JSON.parse(String((contents[0] as { text?: string })?.text)) as {
      runId: string;
      trace: { state: string }[];
    };
    expect(trace.runId).toBe('review');
    expect(trace.trace.map((entry) => entry.state)).toContain('attempting');
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri).sort()).toEqual([
      'loopchart://runs/question',
      'loopchart://runs/review',
    ]);
  });

  it('without --answers offers no answer_run and opens the store read-only', async () => {
    const readOnly = await connect([]);
    try {
      const { tools } = await readOnly.listTools();
      expect(tools.map((tool) => tool.name)).not.toContain('answer_run');
      const shown = (await readOnly.callTool({
        name: 'show_run',
        arguments: { runId: 'question' },
      })) as { structuredContent?: LoopRunDetail };
      expect(shown.structuredContent?.status).toBe('paused');
    } finally {
      await readOnly.close();
    }
  });
});

describe.skipIf(!reachable)('loopchart mcp --db postgres://', () => {
  it('serves the runs of a Postgres schema', async () => {
    await seedSchema(schema, (store) => runLoop(askLoop, 'q3', { store, runId: 'on-postgres' }));
    const onPostgres = await connect(['--db', PG_URL, '--schema', schema]);
    try {
      const listed = (await onPostgres.callTool({ name: 'list_runs', arguments: {} })) as {
        structuredContent?: RunList;
      };
      expect(listed.structuredContent?.runs.map((run) => [run.runId, run.status])).toEqual([
        ['on-postgres', 'paused'],
      ]);
    } finally {
      await onPostgres.close();
    }
  });
});
