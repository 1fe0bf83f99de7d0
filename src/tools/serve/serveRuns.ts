import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { LoopConfigError } from '../../core/vocabulary/LoopConfigError.js';
import { catchRequests } from '../viewer/catchRequests.js';
import { listenOn } from '../viewer/listenOn.js';
import { decodePathSegment, isAllowedHost, isAllowedOrigin } from '../viewer/requestChecks.js';
import { type RequestTimeouts, serverTimeouts } from '../viewer/serverTimeouts.js';
import { type ApiReply, refuse } from './apiReply.js';
import { openApiDocument } from './openApiDocument.js';
import { readJsonBody } from './readJsonBody.js';
import { createRunApi, type RunApiOptions } from './runApi.js';
import { tokenMatches } from './tokenMatches.js';

/** Options of `serveRuns`. */
export interface ServeRunsOptions extends Omit<RunApiOptions, 'answers'>, RequestTimeouts {
  /**
   * Enables answers: `POST /api/runs/{id}/answer` needs `Authorization: Bearer <token>`. Bound
   * beyond loopback, every request needs it. At least 16 characters; never logged.
   */
  token?: string;
  /** Default 4243; 0 picks a free port. */
  port?: number;
  /** Default `127.0.0.1` (loopback only). */
  host?: string;
  /** Largest answer body accepted. Default 64 KiB. */
  maxBodyBytes?: number;
  /** Browser origins (besides the server's own) allowed to post answers, e.g. a dashboard's. */
  allowedOrigins?: readonly string[];
  /**
   * Hears one line per request (method, path, status), runs that failed after an answer, and
   * requests that failed inside the server (answered 500; the server keeps serving).
   */
  log?: (line: string) => void;
}

/** A running run API server. */
export interface RunsServer {
  /** e.g. `http://127.0.0.1:4243/`. */
  url: string;
  host: string;
  port: number;
  /** Stops listening, then waits for the runs answers started to end or pause. */
  close(): Promise<void>;
}

export const DEFAULT_SERVE_PORT = 4243;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/**
 * Serves stored runs over HTTP, read-only unless a `token` is given: `GET /api/runs`,
 * `/api/runs/{id}`, `/api/health`, `/api/openapi.json`, and `POST /api/runs/{id}/answer`.
 * Binds 127.0.0.1 unless told otherwise; refuses foreign Host headers (DNS rebinding) and
 * cross-origin answers. docs/api.md describes every endpoint.
 * @example const server = await serveRuns({ store, loops: { invoice }, token: process.env.LOOPCHART_API_TOKEN });
 */
export async function serveRuns(options: ServeRunsOptions): Promise<RunsServer> {
  const host = options.host ?? '127.0.0.1';
  const { token } = options;
  if (token !== undefined && (typeof token !== 'string' || token.length < 16)) {
    throw new LoopConfigError(
      'loopchart: invalid serveRuns options\n  - token: must be a string of at least 16 characters',
    );
  }
  const private_ = !LOOPBACK.has(host);
  if (private_ && token === undefined) {
    throw new LoopConfigError(
      `loopchart: invalid serveRuns options\n  - token: required when host is ${host} (beyond loopback every request needs it)`,
    );
  }
  const log = options.log ?? (() => {});
  const timeouts = serverTimeouts(options, 'serveRuns');
  const maxBodyBytes = options.maxBodyBytes ?? 64 * 1024;
  const api = createRunApi({
    ...options,
    answers: token !== undefined,
    onRunError: (runId, error) =>
      log(
        `run ${runId} failed after an answer: ${error instanceof Error ? error.message : String(error)}`,
      ),
  });
  let port = 0;
  const openApi = JSON.stringify(openApiDocument());

  const handle = async (request: IncomingMessage): Promise<ApiReply<unknown> | { raw: string }> => {
    if (!isAllowedHost(request.headers.host, host, port)) {
      return refuse(421, 'forbidden', 'unknown Host header: requests must name this server');
    }
    const url = urlOf(request);
    if (!url) return refuse(400, 'bad_request', 'the request target is not a valid path');
    const authorized = token !== undefined && tokenMatches(request.headers.authorization, token);
    if (private_ && !authorized) return refuse(401, 'unauthorized', 'this server needs its token');
    const answer = /^\/api\/runs\/([^/]+)\/answer$/.exec(url.pathname);
    if (answer) {
      if (request.method !== 'POST') return refuse(405, 'method_not_allowed', 'answers are POSTed');
      const origin = request.headers.origin;
      if (
        origin !== undefined &&
        !isAllowedOrigin(origin, host, port, options.allowedOrigins ?? [])
      ) {
        return refuse(403, 'forbidden', `origin ${origin.slice(0, 100)} may not answer runs`);
      }
      if (token === undefined) return api.answer('', undefined);
      if (!authorized)
        return refuse(401, 'unauthorized', 'answers need Authorization: Bearer <token>');
      if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
        return refuse(415, 'unsupported_media_type', 'send the answer as application/json');
      }
      const body = await readJsonBody(request, maxBodyBytes);
      if (!body.ok) {
        return body.reason === 'too_large'
          ? refuse(413, 'payload_too_large', `the body is larger than ${maxBodyBytes} bytes`)
          : refuse(400, 'bad_request', 'the body is not JSON');
      }
      const runId = decodePathSegment(answer[1]);
      if (runId === undefined)
        return refuse(400, 'bad_request', 'the run id is not valid percent-encoding');
      return api.answer(runId, body.value);
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return refuse(
        405,
        'method_not_allowed',
        'GET only (answers are POSTed to /api/runs/{id}/answer)',
      );
    }
    const query = queryOf(url);
    if (!query) return refuse(400, 'bad_request', 'query: a parameter is repeated');
    if (url.pathname === '/api/runs') return api.list(query);
    if (url.pathname === '/api/health') return api.health(query);
    if (url.pathname === '/api/openapi.json') return { raw: openApi };
    const run = /^\/api\/runs\/([^/]+)$/.exec(url.pathname);
    if (run) {
      const runId = decodePathSegment(run[1]);
      if (runId === undefined)
        return refuse(400, 'bad_request', 'the run id is not valid percent-encoding');
      return api.show(runId);
    }
    return refuse(
      404,
      'not_found',
      `no endpoint ${url.pathname.slice(0, 100)} (see /api/openapi.json)`,
    );
  };

  const failed = (error: unknown) =>
    log(`request failed: ${error instanceof Error ? error.message : String(error)}`.slice(0, 500));
  const server = createServer(
    timeouts,
    catchRequests(
      async (request, response) => {
        const reply = await handle(request);
        const status = 'raw' in reply ? 200 : reply.status;
        const path = urlOf(request)?.pathname ?? '(invalid)';
        log(`${request.method} ${path.slice(0, 200)} ${status}`);
        send(response, status, 'raw' in reply ? reply.raw : JSON.stringify(reply.body));
      },
      failed,
      (response) => send(response, 500, JSON.stringify(INTERNAL.body)),
    ),
  );
  const bound = await listenOn(server, options.port ?? DEFAULT_SERVE_PORT, host);
  // once listening: a listen error (port in use) is the caller's, from listenOn
  server.on('error', failed);
  port = bound.port;
  return {
    url: `http://${bound.origin}/`,
    host: bound.address,
    port,
    close: async () => {
      server.closeIdleConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await api.drain();
    },
  };
}

const INTERNAL = refuse(500, 'internal', 'the request failed');

/** The request's URL, or `undefined` for a target no URL parser takes (`//`, `http://[x`). */
function urlOf(request: IncomingMessage): URL | undefined {
  return URL.parse(request.url ?? '/', 'http://runs') ?? undefined;
}

function queryOf(url: URL): Record<string, string> | undefined {
  const query: Record<string, string> = Object.create(null);
  for (const [key, value] of url.searchParams) {
    if (Object.hasOwn(query, key)) return undefined;
    query[key] = value;
  }
  return query;
}

function send(response: ServerResponse, status: number, body: string) {
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...(status === 401 ? { 'www-authenticate': 'Bearer' } : {}),
  });
  response.end(body);
}
