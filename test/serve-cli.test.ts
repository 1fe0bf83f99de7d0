import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoop } from 'loopchart';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledCli } from './support/compiledCli.js';
import { draftLoop } from './support/reviewLoops.js';

const TOKEN = 'cli-token-do-not-print-0123456789';
const dir = mkdtempSync(join(tmpdir(), 'loopchart-serve-cli-'));
const db = join(dir, 'runs.db');
let cli: ReturnType<typeof compiledCli>;

/** Starts `loopchart serve` and resolves once it printed its URL. */
function start(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [cli.main, 'serve', '--db', db, '--port', '0', ...args], {
    env: { ...process.env, NO_COLOR: '1', ...env },
  });
  const output = { text: '' };
  child.stdout.on('data', (chunk) => {
    output.text += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output.text += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const found = /(http:\/\/127\.0\.0\.1:\d+\/)api\/runs/.exec(output.text);
      if (found?.[1]) resolve(found[1]);
    });
    void exited.then((code) => reject(new Error(`serve exited ${code}: ${output.text}`)));
  });
  return { child, output, exited, url };
}

const stopped = async (child: ChildProcess, exited: Promise<number | null>) => {
  child.kill('SIGTERM');
  return exited;
};

beforeAll(async () => {
  cli = compiledCli('serve-cli');
  const store = new SqliteCheckpointStore(db);
  await runLoop(draftLoop, 'memo', { store, runId: 'review' });
  store.close();
}, 120_000);
afterAll(() => {
  cli?.remove();
  rmSync(dir, { recursive: true, force: true });
});

describe('loopchart serve', () => {
  it('answers with the token from the environment, never printing it, and stops cleanly', async () => {
    const server = start(['--loops', cli.loops, '--log'], { LOOPCHART_API_TOKEN: TOKEN });
    const base = await server.url;
    const seq = ((await (await fetch(`${base}api/runs/review`)).json()) as { seq: number }).seq;
    const post = (token: string) =>
      fetch(`${base}api/runs/review/answer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ event: { type: 'review.continue' }, ifSeq: seq, wait: true }),
      });
    expect((await post(`${TOKEN}-wrong`)).status).toBe(401);
    const answered = await post(TOKEN);
    expect(answered.status).toBe(200);
    expect(await answered.json()).toMatchObject({ run: { status: 'done', state: 'proceed' } });
    expect(await stopped(server.child, server.exited)).toBe(0);
    expect(server.output.text).toContain(
      'answers enabled with the token from LOOPCHART_API_TOKEN, for draft, ask',
    );
    expect(server.output.text).toMatch(/POST \/api\/runs\/review\/answer 401/);
    expect(server.output.text).toContain('run API stopped');
    expect(server.output.text).not.toContain(TOKEN);
  });

  it('without a token serves reads only and says how to enable answers', async () => {
    const server = start([]);
    const base = await server.url;
    expect((await fetch(`${base}api/runs`)).status).toBe(200);
    expect(await stopped(server.child, server.exited)).toBe(0);
    expect(server.output.text).toContain(
      'read-only: set LOOPCHART_API_TOKEN to answer paused runs',
    );
  });

  it('refuses to bind beyond loopback without a token, exit 2 naming it', async () => {
    const server = start(['--host', '0.0.0.0']);
    server.url.catch(() => undefined);
    expect(await server.exited).toBe(2);
    expect(server.output.text).toMatch(/token: required when host is 0\.0\.0\.0/);
  });
});
