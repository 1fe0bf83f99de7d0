import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ApiReply } from '../serve/apiReply.js';
import {
  answerRequestSchema,
  answerResponseSchema,
  healthQuerySchema,
  listQuerySchema,
} from '../serve/apiSchemas.js';
import { healthReportSchema } from '../serve/healthSchema.js';
import { createRunApi, type RunApi, type RunApiOptions } from '../serve/runApi.js';
import { runListSchema } from '../serve/runSchemas.js';

/** Options of `createRunsMcpServer`. */
export interface RunsMcpOptions extends RunApiOptions {
  /** The server's name in the MCP handshake (default `loopchart`). */
  name?: string;
}

const runIdSchema = z.string().min(1).max(200).describe('The run id, as list_runs shows it.');

/**
 * An MCP server over stored runs: tools `list_runs`, `show_run`, `loop_health` and, with
 * `answers`, `answer_run`; resources `loopchart://runs/{runId}` and `…/{runId}/trace`. Connect it
 * to a transport (`loopchart mcp` uses stdio). docs/api.md lists what each returns.
 * @example const server = createRunsMcpServer({ store, loops: { invoice }, answers: true });
 *          await server.connect(new StdioServerTransport());
 */
export function createRunsMcpServer(options: RunsMcpOptions): McpServer & { api: RunApi } {
  const api = createRunApi(options);
  const server = new McpServer(
    { name: options.name ?? 'loopchart', version: '1' },
    {
      instructions:
        'loopchart runs are self-correcting loops (attempt → validate → refine) saved after every step. Use list_runs to find runs (status "paused" means a person must answer), show_run to read why a run ended (error) or what it waits for (pending, answerWith, seq), loop_health for red flags across many runs, and answer_run to answer a pause with the seq you read.',
    },
  );
  server.registerTool(
    'list_runs',
    {
      title: 'List runs',
      description:
        'List stored loop runs, most recently saved first. Filter by status ("paused" = waiting for a person, "running", "done"), by loop id, and by since (30m, 24h, 7d or an ISO date). Pages of `limit` runs; pass `next` back as `cursor` for the next page. Each run has runId, status, state, seq and machineId (the loop).',
      inputSchema: listQuerySchema,
      outputSchema: runListSchema,
      annotations: { readOnlyHint: true },
    },
    async (query) => toolResult(await api.list(query)),
  );
  server.registerTool(
    'show_run',
    {
      title: 'Show a run',
      description:
        'One run in full. For a paused run: `pending` (the question with its options, or the candidate to review), `answerWith` (the event types it takes) and `seq` (pass it to answer_run as ifSeq). For a finished run: `outcome` (status, candidate or partial) and, when it did not succeed, `error` (the LoopError: kind, message, the cap hit, the failing step). `trace` lists every step and decision with its rationale. An agent paused for its owner (kind "agent") shows `choice`: the shapes offered, each with its worst case (`certificate`: calls, cost, time), a recommendation and the question. An agent paused for its owner (kind "agent") shows `choice`: the shapes offered, each with its worst case (`certificate`: calls, cost, time), a recommendation and the question.',
      inputSchema: z.strictObject({ runId: runIdSchema }),
      annotations: { readOnlyHint: true },
    },
    async ({ runId }) => toolResult(await api.show(runId)),
  );
  server.registerTool(
    'loop_health',
    {
      title: 'Loop health',
      description:
        'The health of stored runs per loop: outcomes, refine cycles against the cap, the verdict mix, stalls, cost, failures, and red flags (each with a sentence saying what to look at). Optional filters: loop, since, until (30m, 24h, 7d or an ISO date).',
      inputSchema: healthQuerySchema,
      outputSchema: healthReportSchema,
      annotations: { readOnlyHint: true },
    },
    async (query) => toolResult(await api.health(query)),
  );
  if (options.answers) {
    server.registerTool(
      'answer_run',
      {
        title: 'Answer a paused run',
        description:
          'Answer a run that waits for a person. Read it with show_run first and pass its seq as ifSeq (a run that moved on is refused, never answered by mistake). Events: {"type":"review.continue"} accepts the candidate; {"type":"review.modify","candidate":…} or {"input":…} replaces it; {"type":"review.retry","feedback":"…"} asks for another attempt; {"type":"review.abort"} stops; {"type":"clarification.answer","answer":…} answers a question (one of its options when it lists them). A parked run (show_run shows parked: its step was in flight when its process died) takes {"type":"outcome.happened","result":…} (the step acted and returned result), {"type":"outcome.did_not_happen"} (run it once more) or {"type":"outcome.give_up"}. An agent paused for its owner (show_run shows kind "agent" and its choice brief, each shape with its worst-case certificate) takes {"type":"shape.choose","shape":"single-shot"|"loop"|"pipeline"}, one of the candidates of the brief, and runs that shape. With wait=true it returns the run once it ends or pauses again.',
        inputSchema: answerRequestSchema.extend({ runId: runIdSchema }),
        outputSchema: answerResponseSchema,
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
      },
      async ({ runId, ...request }) => toolResult(await api.answer(runId, request)),
    );
  }
  const listRuns = async () => {
    const reply = await api.list({ limit: 50 });
    const runs = reply.ok ? reply.body.runs : [];
    return {
      resources: runs.map((run) => ({
        uri: `loopchart://runs/${encodeURIComponent(run.runId)}`,
        name: run.runId,
        description: `${run.machineId}: ${run.status} in ${run.state}`,
        mimeType: 'application/json',
      })),
    };
  };
  server.registerResource(
    'run',
    new ResourceTemplate('loopchart://runs/{runId}', { list: listRuns }),
    {
      title: 'A run',
      description: 'A stored run in full (what show_run returns).',
      mimeType: 'application/json',
    },
    async (uri, { runId }) =>
      resourceResult(uri, await api.show(decodeURIComponent(String(runId)))),
  );
  server.registerResource(
    'run-trace',
    new ResourceTemplate('loopchart://runs/{runId}/trace', { list: undefined }),
    {
      title: "A run's trace",
      description:
        'Every step visit and decision of a run, in order, with rationales, keys and cost.',
      mimeType: 'application/json',
    },
    async (uri, { runId }) => {
      const reply = await api.show(decodeURIComponent(String(runId)));
      const traced =
        reply.ok && 'trace' in reply.body
          ? {
              ...reply,
              body: { runId: reply.body.runId, seq: reply.body.seq, trace: reply.body.trace },
            }
          : reply;
      return resourceResult(uri, traced);
    },
  );
  return Object.assign(server, { api });
}

function toolResult(reply: ApiReply<unknown>): CallToolResult {
  const text = JSON.stringify(reply.body, null, 2);
  if (!reply.ok) return { isError: true, content: [{ type: 'text', text }] };
  return {
    content: [{ type: 'text', text }],
    structuredContent: reply.body as Record<string, unknown>,
  };
}

function resourceResult(uri: URL, reply: ApiReply<unknown>) {
  if (!reply.ok) throw new Error(reply.body.error.message);
  return {
    contents: [
      { uri: uri.href, mimeType: 'application/json', text: JSON.stringify(reply.body, null, 2) },
    ],
  };
}
