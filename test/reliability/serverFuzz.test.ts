import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { createLoopMachine, runLoop } from 'loopchart';
import { SqliteCheckpointStore } from 'loopchart/sqlite';
import type { RunView } from 'loopchart/viewer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toMachineJson } from '../../src/tools/diagram/toMachineJson.js';
import { heldOutApps } from '../analysis-corpus/heldOutApps.js';
import { otherApps } from '../analysis-corpus/otherApps.js';
import { xstateApps } from '../analysis-corpus/xstateApps.js';
import { xstateWorkflows } from '../analysis-corpus/xstateWorkflows.js';
import { xstateWorkflowsRest } from '../analysis-corpus/xstateWorkflowsRest.js';
import { openSocket } from '../browser/support/viewerTestKit.js';
import { definitionOf, ringMachine, wizardMachine } from '../support/bigMachines.js';
import { compiledCli } from '../support/compiledCli.js';
import type { LoopSeen } from '../support/eventLoopWatch.mjs';
import { DEFINITION_CONFIGS } from '../support/machineDefinitions.js';
import { plainGet, rawRequest } from '../support/rawHttp.js';
import { askLoop, draftLoop } from '../support/reviewLoops.js';
import { type ServerProcess, startServerProcess } from '../support/serverProcess.js';
import { recordFigures } from './support/figures.js';
import { type FuzzTarget, fuzz, requestPlans } from './support/httpFuzz.js';

// SPEC §14: no request to view, serve or mcp can end the process or block it for more than a
// second. Each server runs in a child process (its end is observable) with loopWatch.mjs
// preloaded, which measures its event loop from the inside. FUZZ_REQUESTS sets the requests per
// HTTP server (5,000 each, 10,000 in all), FUZZ_SEED replays a run.

const PER_SERVER = Number(process.env.FUZZ_REQUESTS ?? 5_000);
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const MCP_LINES = 2_000;
const TOKEN = 'fuzz-token-0123456789abcdef';
const loopWatch = fileURLToPath(new URL('./loopWatch.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'loopchart-fuzz-'));
const db = join(dir, 'runs.db');
let cli: ReturnType<typeof compiledCli>;
const figures: Record<string, unknown> = { seed: SEED, perServer: PER_SERVER };

/** What loopWatch.mjs saw in the server `name`; `blockedServing`: its blocked stretches after `readyAt`. */
const loopSeen = (name: string, readyAt: number) => {
  const seen = JSON.parse(readFileSync(join(dir, `${name}-loop.json`), 'utf8')) as LoopSeen;
  return { ...seen, blockedServing: seen.blocked.filter((stretch) => stretch.endedAt > readyAt) };
};

const watched = async (name: string, args: string[]) => {
  const server = await startServerProcess(cli.main, args, {
    nodeArgs: ['--import', loopWatch],
    env: { LOOP_WATCH_FILE: join(dir, `${name}-loop.json`), LOOPCHART_API_TOKEN: TOKEN },
  });
  return { server, readyAt: Date.now() };
};

/** A plain GET every 200 ms until stopped: each probe's status and latency. */
function probe(server: ServerProcess, path: string) {
  const probes: { status: number; ms: number }[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const started = performance.now();
      const { status } = await rawRequest(server.port, plainGet(server.port, path), 10_000);
      probes.push({ status, ms: performance.now() - started });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await done;
      const ms = probes.map((p) => p.ms).sort((a, b) => a - b);
      return {
        probes,
        count: probes.length,
        unanswered: probes.filter((p) => p.status !== 200).length,
        statuses: [...new Set(probes.map((p) => p.status))],
        p50Ms: Math.round(ms[Math.floor(ms.length / 2)] ?? 0),
        maxMs: Math.round(ms.at(-1) ?? 0),
      };
    },
  };
}

/** The biggest machine (states + transitions) among the test fixtures: the corpus and the loop configs. */
function largestFixtureMachine() {
  const corpus = [
    ...heldOutApps,
    ...otherApps,
    ...xstateApps,
    ...xstateWorkflows,
    ...xstateWorkflowsRest,
  ];
  const machines = [
    ...corpus.map((entry) => ({ name: entry.name, machine: entry.machine })),
    ...Object.entries(DEFINITION_CONFIGS).map(([name, config]) => ({
      name: `loop ${name}`,
      machine: createLoopMachine(config),
    })),
  ];
  const size = ({ machine }: (typeof machines)[number]) => {
    const graph = toMachineJson(machine);
    return graph.nodes.length + graph.edges.length;
  };
  return machines.reduce((best, next) => (size(next) > size(best) ? next : best));
}

beforeAll(async () => {
  cli = compiledCli('server-fuzz');
  const store = new SqliteCheckpointStore(db);
  await runLoop(draftLoop, 'memo', { store, runId: 'review' });
  await runLoop(askLoop, 'q3', { store, runId: 'question' });
  await runLoop({ ...draftLoop, review: undefined }, 'done', { store, runId: 'finished' });
  store.close();
}, 120_000);
afterAll(() => {
  recordFigures('server-fuzz', figures);
  cli?.remove();
  rmSync(dir, { recursive: true, force: true });
});

/** Inspection messages a reporter could send: valid, odd and garbage, with machine definitions. */
const inspection = fc
  .oneof(
    fc.record({
      type: fc.constantFrom('@xstate.actor', '@xstate.snapshot', '@xstate.event', 'x'),
      sessionId: fc.constantFrom('x:0', 'x:1', 'constructor', '__proto__', ''),
      rootId: fc.constantFrom('x:0', 'y:0', undefined),
      definition: fc.oneof(fc.json({ maxDepth: 5 }), fc.constant(definitionOf(ringMachine(50)))),
      snapshot: fc.record({
        status: fc.constantFrom('active', 'done', 'error'),
        value: fc.jsonValue({ maxDepth: 4 }),
      }),
      event: fc.record({ type: fc.string({ maxLength: 20 }) }),
    }),
    fc.json({ maxDepth: 3 }),
  )
  .map((value) => (typeof value === 'string' ? value : JSON.stringify(value)));

/**
 * Fuzzes one server process with PER_SERVER generated requests while probing `probePath`, then
 * checks it is alive, answers, stops with 0, never blocked and never answered 500. `meanwhile`
 * starts more traffic and returns what to add to the figures once the fuzz is done.
 */
async function fuzzServer(
  name: string,
  args: string[],
  probePath: string,
  target: Omit<FuzzTarget, 'port'>,
  meanwhile: (
    server: ServerProcess,
  ) => Promise<() => Promise<Record<string, unknown>>> = async () => async () => ({}),
) {
  const { server, readyAt } = await watched(name, args);
  const probes = probe(server, probePath);
  const after = await meanwhile(server);
  const started = performance.now();
  const result = await fuzz(server.port, requestPlans({ port: server.port, ...target }), {
    count: PER_SERVER,
    concurrency: 24,
    seed: SEED,
    giveUpMs: 800,
  });
  const seconds = (performance.now() - started) / 1000;
  const probed = await probes.stop();
  const extra = await after();
  const final = await rawRequest(server.port, plainGet(server.port, probePath));
  const alive = server.exitCode() === undefined;
  const output = server.output();
  const exitCode = await server.stop();
  const loop = loopSeen(name, readyAt);
  const { probes: _each, ...probeFigures } = probed;
  figures[name] = { ...result, seconds, probes: probeFigures, loop, ...extra };
  expect({ alive, final: final.status, exitCode }).toEqual({
    alive: true,
    final: 200,
    exitCode: 0,
  });
  expect(result.sent).toBe(PER_SERVER);
  expect(probed.unanswered).toBe(0);
  expect(loop.blockedServing).toEqual([]);
  expect(result.statuses[500] ?? 0).toBe(0);
  expect(output).not.toMatch(/request failed/);
}

describe(`the servers under ${PER_SERVER} generated requests each (seed ${SEED})`, () => {
  it('loopchart view stays up and never blocks over 1 s, the largest fixture machines reported to it meanwhile', async () => {
    const largest = largestFixtureMachine();
    await fuzzServer(
      'view',
      ['view', '--port', '0'],
      '/',
      {
        routes: ['/', '/health', '/api/runs', '/api/runs/{id}', '/watch', '/{id}'],
        segments: ['c1%2Fbig%3A0', 'c1/big:0', 'x'],
        messages: inspection,
      },
      async (server) => {
        const reporter = await openSocket(`ws://127.0.0.1:${server.port}/`);
        [largest.machine, wizardMachine(), ringMachine(300)].forEach((machine, i) => {
          const ids = { sessionId: `big:${i}`, rootId: `big:${i}` };
          reporter.send(
            JSON.stringify({ type: '@xstate.actor', ...ids, definition: definitionOf(machine) }),
          );
        });
        return async () => {
          const runs = (await (await fetch(`${server.url}api/runs`)).json()) as RunView[];
          reporter.close();
          const charts = runs
            .filter((run) => run.id.includes('big:'))
            .map(({ id, chartId, chartError }) => ({ id, chartId, chartError }));
          return { largest: largest.name, charts };
        };
      },
    );
  }, 600_000);

  it('loopchart serve stays up and never blocks over 1 s', async () => {
    await fuzzServer(
      'serve',
      ['serve', '--port', '0', '--db', db, '--loops', cli.loops],
      '/api/runs',
      {
        routes: [
          '/api/runs',
          '/api/runs/{id}',
          '/api/runs/{id}/answer',
          '/api/health',
          '/api/openapi.json',
          '/{id}',
        ],
        segments: ['review', 'question', 'finished', 'constructor', 'toString'],
        token: TOKEN,
      },
    );
  }, 600_000);

  it(`loopchart mcp answers every request among ${MCP_LINES} garbage lines and lines over 10 MiB, and never blocks over 1 s`, async () => {
    const child = spawn(process.execPath, ['--import', loopWatch, cli.main, 'mcp', '--db', db], {
      env: { ...process.env, LOOP_WATCH_FILE: join(dir, 'mcp-loop.json') },
    });
    let stdout = '';
    let readyAt = Number.POSITIVE_INFINITY; // its first answer: it has loaded and serves
    child.stdout.on('data', (chunk) => {
      readyAt = Math.min(readyAt, Date.now());
      stdout += chunk;
    });
    child.stderr.resume();
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const request = (id: number, method: string, params: Record<string, unknown> = {}) =>
      `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;
    const garbage = fc.oneof(
      fc.json({ maxDepth: 4 }),
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc
        .record({
          jsonrpc: fc.constant('2.0'),
          method: fc.string({ maxLength: 20 }),
          params: fc.jsonValue({ maxDepth: 3 }),
        })
        .map((value) => JSON.stringify(value)),
      fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
    );
    const calls = fc.constantFrom(
      ['tools/list', {}],
      ['tools/call', { name: 'list_runs', arguments: {} }],
      ['tools/call', { name: 'show_run', arguments: { runId: 'review' } }],
      ['tools/call', { name: 'show_run', arguments: { runId: '%E0' } }],
      ['tools/call', { name: 'loop_health', arguments: { since: 'garbage' } }],
      ['resources/read', { uri: 'loopchart://runs/%E0' }],
      ['resources/read', { uri: 'loopchart://runs/review/trace' }],
      ['ping', {}],
    ) as fc.Arbitrary<[string, Record<string, unknown>]>;
    const lines = fc.sample(fc.oneof(garbage, calls), { numRuns: MCP_LINES, seed: SEED });
    const ours: number[] = [];
    child.stdin.write(
      request(1, 'initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'fuzz', version: '1' },
      }),
    );
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`,
    );
    for (const [i, line] of lines.entries()) {
      if (Array.isArray(line)) {
        const id = 1_000_000 + i;
        ours.push(id);
        child.stdin.write(request(id, line[0], line[1]));
      } else child.stdin.write(`${line.replaceAll('\n', ' ')}\n`);
      if (i % 500 === 0) child.stdin.write(`"${'o'.repeat(10 * 1024 * 1024 + 1)}"\n`);
      if (!child.stdin.writableNeedDrain) continue;
      await new Promise((resolve) => child.stdin.once('drain', resolve));
    }
    child.stdin.end();
    expect(await exited).toBe(0);
    const answered = new Set(
      stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { id?: unknown }).id),
    );
    const unanswered = ours.filter((id) => !answered.has(id));
    const loop = loopSeen('mcp', readyAt);
    figures.mcp = { lines: MCP_LINES, requests: ours.length, unanswered: unanswered.length, loop };
    expect(unanswered).toEqual([]);
    expect(loop.blockedServing).toEqual([]);
  }, 300_000);
});
