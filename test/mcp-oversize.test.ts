import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { runLoop } from 'loopchart';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledCli } from './support/compiledCli.js';
import { draftLoop } from './support/reviewLoops.js';

// Issue 29: `loopchart mcp` exited 0, silently, on one line over 10 MiB, and the requests queued
// around it went unanswered. It now answers that line with a JSON-RPC error and keeps serving.
// Both tests failed on 38be5e8.

const dir = mkdtempSync(join(tmpdir(), 'loopchart-mcp-oversize-'));
const db = join(dir, 'runs.db');
const OVER = 10 * 1024 * 1024 + 1;
let cli: ReturnType<typeof compiledCli>;

beforeAll(async () => {
  cli = compiledCli('mcp-oversize');
  const store = new SqliteCheckpointStore(db);
  await runLoop(draftLoop, 'memo', { store, runId: 'review' });
  store.close();
}, 120_000);
afterAll(() => {
  cli?.remove();
  rmSync(dir, { recursive: true, force: true });
});

const request = (id: number, method: string, params: Record<string, unknown> = {}) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;
const initialize = request(1, 'initialize', {
  protocolVersion: '2025-06-18',
  capabilities: {},
  clientInfo: { name: 'raw-writer', version: '1' },
});
const initialized = `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`;

describe('loopchart mcp and input it cannot take', () => {
  it('answers every request written around an oversize line, a garbage line and a bare array, then exits 0', async () => {
    const child = spawn(process.execPath, [cli.main, 'mcp', '--db', db], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const listRuns = (id: number) =>
      request(id, 'tools/call', { name: 'list_runs', arguments: {} });
    child.stdin.write(initialize + initialized + listRuns(2));
    child.stdin.write(
      `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"x":"${'a'.repeat(OVER)}"}}\n`,
    );
    child.stdin.write(`${listRuns(4)}this is not json\n[1,2]\n`);
    child.stdin.write(
      request(5, 'tools/call', { name: 'show_run', arguments: { runId: 'review' } }),
    );
    child.stdin.end(request(6, 'ping'));

    expect(await exited).toBe(0);
    const replies = stdout
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            id: unknown;
            result?: unknown;
            error?: { code: number; message: string };
          },
      );
    const answered = replies.filter((reply) => typeof reply.id === 'number' && reply.result);
    expect(answered.map((reply) => reply.id).sort()).toEqual([1, 2, 4, 5, 6]);
    const errors = replies
      .filter((reply) => reply.error)
      .map((reply) => [reply.id, reply.error?.code]);
    expect(errors).toEqual([
      [null, -32600],
      [null, -32700],
      [null, -32600],
    ]);
    expect(replies.find((reply) => reply.error?.code === -32600)?.error?.message).toMatch(
      /a message over 10485760 bytes was skipped unread/,
    );
    expect(stderr).toMatch(
      /mcp: Invalid Request: a message over 10485760 bytes was skipped unread/,
    );
  }, 60_000);

  it("keeps serving the SDK's own client after it sent a message over 10 MiB", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli.main, 'mcp', '--db', db],
      stderr: 'pipe',
    });
    const client = new Client({ name: 'loopchart-test', version: '1' });
    const heard: string[] = [];
    client.onerror = (error) => heard.push(error.message);
    await client.connect(transport);
    try {
      await transport.send({
        jsonrpc: '2.0',
        id: 999,
        method: 'tools/call',
        params: { name: 'show_run', arguments: { runId: 'x'.repeat(OVER) } },
      });
      const result = (await client.callTool({ name: 'list_runs', arguments: {} })) as {
        structuredContent?: { runs: { runId: string }[] };
      };
      expect(result.structuredContent?.runs.map((run) => run.runId)).toEqual(['review']);
    } finally {
      await client.close();
    }
  }, 60_000);
});
