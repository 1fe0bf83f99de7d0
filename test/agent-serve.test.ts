/**
 * An agent paused for its owner's choice of shape, over the wire: the run API (`serveRuns`, a
 * real HTTP server) and MCP show the brief with each shape's certificate, and a `shape.choose`
 * answer behind the token runs the chosen shape, and nothing else.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { type AnyLoopConfig, type LoopConfig, MemoryCheckpointStore } from 'loopchart';
import { createAgent, runAgent } from 'loopchart/agent';
import { certifyLoop, certifyPipeline } from 'loopchart/analysis';
import { createRunsMcpServer } from 'loopchart/mcp';
import { API_SCHEMAS, serveRuns } from 'loopchart/serve';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import { afterAll, describe, expect, it } from 'vitest';

const TOKEN = 'agent-token-0123456789abcdef';
const request = 'What is the VAT rate in Spain?'; // no rule matches: the heuristic says single-shot
const valid = () => ({ valid: true }) as const;

/** A fresh agent whose model check says `complex` (pipeline), journalling the calls it makes. */
function agentWithJournal(id = 'vat') {
  const calls: string[] = [];
  const task: LoopConfig<string, string> = {
    attempt: ({ input }) => {
      calls.push('task');
      return `answer to ${input}`;
    },
    validate: valid,
    maxRetries: 2,
    costEstimates: { attempt: 0.02, validate: 0.001 },
  };
  const stageLoop: LoopConfig<string, string> = {
    attempt: () => {
      calls.push('stage');
      return '21%';
    },
    validate: valid,
    costEstimates: { attempt: 0.01, validate: 0 },
  };
  const agent = createAgent<string>({
    id,
    task,
    router: { modelCheck: { ask: () => 'complex' }, onDisagreement: 'ask' },
    planner: {
      plan: () => {
        calls.push('planner');
        return '{"stages":[{"id":"rate","kind":"lookup"}]}';
      },
      maxStages: 4,
    },
    registry: { lookup: { loop: stageLoop } },
  });
  const planner = agent.config.planning?.loop.config as AnyLoopConfig;
  const largest = certifyPipeline({
    id: 'plannedPipeline',
    stages: [
      { id: 'planner', loop: planner },
      ...[1, 2, 3, 4].map((n) => ({
        id: `stage${n}`,
        dependsOn: [n === 1 ? 'planner' : `stage${n - 1}`],
        loop: stageLoop as AnyLoopConfig,
      })),
    ],
  });
  const { refine: _r, ...once } = task;
  // what each shape runs, certified by the public functions (JSON: Infinity reads as null)
  const certificates = JSON.parse(
    JSON.stringify([
      certifyLoop({ ...once, maxRetries: 0, maxAttempts: 1, stall: false }),
      {
        kind: 'planned-pipeline',
        id: 'plannedPipeline',
        maxStages: 4,
        plans: { 'chain:lookup': largest },
        calls: largest.calls,
        crossChecks: 0,
        cost: largest.cost,
        timeMs: largest.timeMs,
        reachedBy: { calls: 'chain:lookup', cost: 'chain:lookup', timeMs: 'chain:lookup' },
        pauses: 'unbounded-by-design',
      },
    ]),
  );
  return { agent, calls, certificates };
}

const dir = mkdtempSync(join(tmpdir(), 'loopchart-agent-serve-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('an agent choice over HTTP (serveRuns)', () => {
  it('shows the brief with each certificate, refuses a wrong answer, and runs the chosen shape', async () => {
    const store = new SqliteCheckpointStore(join(dir, 'http.db'));
    const { agent, calls, certificates } = agentWithJournal();
    await runAgent(agent, request, { store, runId: 'vat-1' });
    await runAgent(agent, request, { store, runId: 'vat-2' });
    expect(calls).toEqual([]);
    const server = await serveRuns({ store, agents: { vat: agent }, token: TOKEN, port: 0 });
    const get = async (path: string) => (await fetch(new URL(path, server.url))).json();
    const post = (runId: string, body: unknown) =>
      fetch(new URL(`/api/runs/${runId}/answer`, server.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
        body: JSON.stringify(body),
      });
    try {
      const detail = await get('/api/runs/vat-1');
      expect(detail).toMatchObject({
        kind: 'agent',
        runId: 'vat-1',
        status: 'paused',
        state: 'awaitingShapeChoice',
        machineId: 'vat',
        answerWith: ['shape.choose'],
        choice: { request, recommendation: { shape: 'single-shot' } },
      });
      expect(detail.choice.candidates.map((c: { shape: string }) => c.shape)).toEqual([
        'single-shot',
        'pipeline',
      ]);
      expect(detail.choice.candidates.map((c: { certificate: unknown }) => c.certificate)).toEqual(
        certificates,
      );
      // the served OpenAPI document describes it (an independent validator), and so does zod
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      const document = await get('/api/openapi.json');
      for (const [name, schema] of Object.entries(document.components.schemas as object))
        ajv.addSchema(schema, name);
      const validate = ajv.getSchema('RunDetail');
      expect(validate?.(detail), JSON.stringify(validate?.errors)).toBe(true);
      expect(API_SCHEMAS.RunDetail.safeParse(detail).success).toBe(true);

      const row = await store.load('vat-1');
      const refused = [
        [{ event: { type: 'shape.choose', shape: 'loop' }, ifSeq: 1 }, 400], // not offered
        [{ event: { type: 'shape.choose', shape: 'single-shot' }, ifSeq: 2 }, 409], // stale
        [{ event: { type: 'review.continue' }, ifSeq: 1 }, 409], // not what it waits for
        [{ event: { type: 'shape.choose', shape: 'huge' }, ifSeq: 1 }, 400], // no such shape
      ] as const;
      for (const [body, status] of refused) {
        const reply = await post('vat-1', body);
        expect(reply.status, JSON.stringify(await reply.json())).toBe(status);
      }
      expect(await store.load('vat-1')).toEqual(row);
      expect(calls).toEqual([]);

      const chosen = await post('vat-1', {
        event: { type: 'shape.choose', shape: 'pipeline' },
        ifSeq: 1,
        wait: true,
      });
      expect(chosen.status).toBe(200);
      expect(await chosen.json()).toMatchObject({
        accepted: true,
        run: { kind: 'pipeline', machineId: 'plannedPipeline', pipelineStatus: 'completed' },
      });
      expect(calls).toEqual(['planner', 'stage']);

      const single = await post('vat-2', {
        event: { type: 'shape.choose', shape: 'single-shot' },
        ifSeq: 1,
        wait: true,
      });
      expect(single.status).toBe(200);
      expect(await single.json()).toMatchObject({
        run: { kind: 'loop', status: 'done', outcome: { status: 'proceed' } },
      });
      expect(calls).toEqual(['planner', 'stage', 'task']);
    } finally {
      await server.close();
      store.close();
    }
  });

  it('refuses a choice for an agent the server was not given, leaving the brief', async () => {
    const store = new MemoryCheckpointStore();
    const { agent, calls } = agentWithJournal('other');
    await runAgent(agent, request, { store, runId: 'r' });
    const server = await serveRuns({ store, token: TOKEN, port: 0 });
    try {
      const reply = await fetch(new URL('/api/runs/r/answer', server.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
        body: JSON.stringify({ event: { type: 'shape.choose', shape: 'single-shot' }, ifSeq: 1 }),
      });
      expect(reply.status).toBe(422);
      expect((await reply.json()).error.message).toMatch(
        /no agent 'other'.*register it under agents/,
      );
      expect(await store.load('r')).toMatchObject({ state: 'awaitingShapeChoice' });
      expect(calls).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('refuses an agent keyed by anything but its id, at start', async () => {
    const store = new MemoryCheckpointStore();
    const { agent } = agentWithJournal('vat');
    await expect(serveRuns({ store, agents: { wrong: agent }, port: 0 })).rejects.toThrow(
      /agents\.wrong: its id is 'vat'/,
    );
  });
});

describe('an agent choice over MCP', () => {
  it('show_run shows the brief and answer_run with shape.choose runs the chosen shape', async () => {
    const store = new MemoryCheckpointStore();
    const { agent, calls, certificates } = agentWithJournal();
    await runAgent(agent, request, { store, runId: 'vat-mcp' });
    const server = createRunsMcpServer({ store, agents: { vat: agent }, answers: true });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'agent-test', version: '1' });
    await client.connect(clientSide);
    try {
      const { tools } = await client.listTools();
      const answerTool = tools.find((tool) => tool.name === 'answer_run');
      expect(answerTool?.description).toMatch(/shape\.choose/);
      const shown = await client.callTool({ name: 'show_run', arguments: { runId: 'vat-mcp' } });
      const detail = shown.structuredContent as {
        kind: string;
        answerWith: string[];
        choice: { candidates: { certificate: unknown }[] };
      };
      expect(detail).toMatchObject({ kind: 'agent', answerWith: ['shape.choose'] });
      expect(detail.choice.candidates.map((c) => c.certificate)).toEqual(certificates);

      const answered = await client.callTool({
        name: 'answer_run',
        arguments: {
          runId: 'vat-mcp',
          event: { type: 'shape.choose', shape: 'single-shot' },
          ifSeq: 1,
          wait: true,
        },
      });
      expect(answered.isError).toBeFalsy();
      expect(answered.structuredContent).toMatchObject({
        run: { kind: 'loop', outcome: { status: 'proceed', candidate: `answer to ${request}` } },
      });
      expect(calls).toEqual(['task']);
    } finally {
      await client.close();
    }
  });
});
