/**
 * A parked run over the wire (issue 34): the run API and MCP show it parked with the answers it
 * takes, and settle it with an `outcome.*` answer behind the answers token, like any pause.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { recoverRuns } from 'loopchart';
import { createRunsMcpServer } from 'loopchart/mcp';
import { serveRuns } from 'loopchart/serve';
import { expect, it } from 'vitest';
import { crashedRun } from './strandedRun.js';

const TOKEN = 'test-token-0123456789abcdef';

it('shows a parked run and settles it with outcome.happened, refusing it without the token', async () => {
  const { store, config, calls } = await crashedRun('r1', 'pod-a');
  const loops = { charge: config };
  await recoverRuns(store, { loops }, { claimOwner: 'pod-a', inFlight: 'park' });
  const server = await serveRuns({ store, loops, token: TOKEN, port: 0 });
  try {
    const detail = await (await fetch(new URL('/api/runs/r1', server.url))).json();
    expect(detail).toMatchObject({
      status: 'paused',
      parked: { reason: 'unknown_outcome', step: 'attempt' },
      answerWith: ['outcome.happened', 'outcome.did_not_happen', 'outcome.give_up'],
    });
    const post = (body: unknown, token = TOKEN) =>
      fetch(new URL('/api/runs/r1/answer', server.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
    const event = { type: 'outcome.happened', result: 'receipt 812' };
    expect((await post({ event, ifSeq: detail.seq }, 'wrong-token-0123456789abcdef')).status).toBe(
      401,
    );
    expect((await post({ event: { type: 'outcome.happened' }, ifSeq: detail.seq })).status).toBe(
      400,
    );
    const answered = await post({ event, ifSeq: detail.seq, wait: true });
    expect(answered.status).toBe(200);
    expect(await answered.json()).toMatchObject({
      accepted: true,
      run: { status: 'done', outcome: { status: 'proceed', candidate: 'receipt 812' } },
    });
    expect(calls).toEqual([]);
  } finally {
    await server.close();
  }
});

it('settles a parked run over MCP with answer_run and outcome.did_not_happen, the step run once', async () => {
  const { store, config, calls } = await crashedRun('r1', 'pod-a');
  const loops = { charge: config };
  await recoverRuns(store, { loops }, { claimOwner: 'pod-a', inFlight: 'park' });
  const server = createRunsMcpServer({ store, loops, answers: true });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'operate-test', version: '1' });
  await client.connect(clientSide);
  try {
    const shown = await client.callTool({ name: 'show_run', arguments: { runId: 'r1' } });
    const detail = shown.structuredContent as { seq: number; answerWith: string[] };
    expect(detail.answerWith).toContain('outcome.did_not_happen');
    const answered = await client.callTool({
      name: 'answer_run',
      arguments: {
        runId: 'r1',
        event: { type: 'outcome.did_not_happen' },
        ifSeq: detail.seq,
        wait: true,
      },
    });
    expect(answered.isError).toBeFalsy();
    expect(answered.structuredContent).toMatchObject({
      run: { outcome: { status: 'proceed', candidate: 'charged order 7' } },
    });
    expect(calls).toEqual(['order 7']);
  } finally {
    await client.close();
    await server.close();
  }
});
