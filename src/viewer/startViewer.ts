import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type WebSocket, WebSocketServer } from 'ws';
import { listenOn } from '../listenOn.js';
import { createLoopMachine } from '../machines/loopMachine.js';
import type { CheckpointStore } from '../persistence/CheckpointStore.js';
import type { ChartLayout } from './ChartLayout.js';
import { coalesceUpdates } from './coalesceUpdates.js';
import { graphFromDefinition } from './graphFromDefinition.js';
import { HEALTH_PATH, healthResponse } from './health/healthRoute.js';
import { layoutChart, warmUpLayout } from './layoutChart.js';
import { renderPage } from './page/renderPage.js';
import { parseInspection } from './parseInspection.js';
import { RunStore, type RunStoreLimits } from './RunStore.js';
import { isAllowedHost, isAllowedOrigin } from './requestChecks.js';
import type { RunView } from './runView.js';
import { toJsonSafe } from './toJsonSafe.js';

/** Options of `startViewer`. */
export interface ViewerOptions extends Partial<RunStoreLimits> {
  /** Default 4242; 0 picks a free port. */
  port?: number;
  /** Default `127.0.0.1` (loopback only). */
  host?: string;
  /** Largest WebSocket message accepted from a reporter. Default 8 MiB. */
  maxMessageBytes?: number;
  /** Browser origins allowed to report runs (Node reporters send no origin). Default none. */
  reportOrigins?: readonly string[];
  /** Stored runs to serve the health page (`/health`) from; `healthSource` names them there. */
  healthStore?: CheckpointStore;
  healthSource?: string;
}

/** A running viewer. */
export interface RunViewer {
  /** The page, e.g. `http://127.0.0.1:4242/`. */
  url: string;
  /** Where loops report (`connectToViewer(inspectUrl)` or `createWebSocketInspector({ url })`). */
  inspectUrl: string;
  /** The address the server is bound to. */
  host: string;
  port: number;
  runs(): RunView[];
  close(): Promise<void>;
}

export const DEFAULT_VIEWER_PORT = 4242;
const WATCH_PATH = '/watch';
const MAX_CHARTS = 32;
const MAX_WATCHER_BACKLOG = 16 * 1024 * 1024;

/**
 * Serves the run viewer: the page on `/`, a WebSocket for loops to report to (any other path, in
 * `@statelyai/inspect`'s format), and `/watch` for the page. Binds 127.0.0.1 unless told otherwise.
 * Malformed messages are ignored; memory is bounded (`maxRuns`, `maxEventsPerRun`). Pages get each
 * run's latest view at most every 100 ms while it changes, and at once when its status changes.
 * @example const viewer = await startViewer({ port: 0 });
 *          const connection = connectToViewer(viewer.inspectUrl);
 */
export async function startViewer(options: ViewerOptions = {}): Promise<RunViewer> {
  const host = options.host ?? '127.0.0.1';
  const store = new RunStore(options);
  const charts = new Map<string, Promise<ChartLayout | Error>>();
  const watchers = new Map<WebSocket, Set<string>>();
  let connections = 0;
  let port = 0;
  const page = renderPage({ mode: 'live', watchPath: WATCH_PATH }, 'loopchart run viewer');
  // The default loop as a reporter sends it: its chart is then ready before the first run.
  const warm = (async () =>
    warmUpLayout(graphFromDefinition(JSON.stringify(toJsonSafe(defaultLoop().config)))))();

  const send = (watcher: WebSocket, text: string) => {
    if (watcher.bufferedAmount > MAX_WATCHER_BACKLOG) watcher.terminate();
    else watcher.send(text);
  };
  /** Sends a run's latest view (and its chart, the first time) to every page, or to `only`. */
  const publish = async (runId: string, only?: WebSocket) => {
    const chartId = store.get(runId)?.chartId;
    const layout = chartId === undefined ? undefined : await charts.get(chartId);
    const run = store.get(runId);
    if (!run) return;
    const text = JSON.stringify({ type: 'run', run });
    let chart: string | undefined;
    for (const [socket, sent] of only ? [[only, watchers.get(only)] as const] : watchers) {
      if (!sent) continue;
      if (chartId && layout && !(layout instanceof Error) && !sent.has(chartId)) {
        sent.add(chartId);
        chart ??= JSON.stringify({ type: 'chart', id: chartId, layout });
        send(socket, chart);
      }
      send(socket, text);
    }
  };
  const updates = coalesceUpdates((runId) => void publish(runId));
  const chartFor = (definition: string) => {
    const id = createHash('sha256').update(definition).digest('hex').slice(0, 16);
    if (!charts.has(id)) {
      if (charts.size >= MAX_CHARTS) charts.delete(charts.keys().next().value as string);
      charts.set(
        id,
        (async () => layoutChart(graphFromDefinition(definition)))().catch((error: unknown) =>
          error instanceof Error ? error : new Error(String(error)),
        ),
      );
    }
    return { id, chart: charts.get(id) as Promise<ChartLayout | Error> };
  };
  const report = (source: string, text: string) => {
    const message = parseInspection(text);
    if (!message) return;
    const { run, definition, evicted } = store.ingest(source, message);
    for (const id of evicted) {
      updates.forget(id);
      const removed = JSON.stringify({ type: 'removed', id });
      for (const watcher of watchers.keys()) send(watcher, removed);
    }
    updates.changed(run.id, run.status);
    if (definition === undefined) return;
    const { id, chart } = chartFor(definition);
    void chart.then((layout) => {
      const updated = store.setChart(
        run.id,
        layout instanceof Error ? { chartError: layout.message.slice(0, 300) } : { chartId: id },
      );
      if (updated) updates.changed(updated.id, updated.status);
    });
  };

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxMessageBytes ?? 8 * 1024 * 1024,
  });
  const server = createServer((request, response) => {
    if (!isAllowedHost(request.headers.host, host, port))
      return reply(response, 421, 'text/plain', 'unknown host\n');
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return reply(response, 405, 'text/plain', 'GET only\n');
    const path = new URL(request.url ?? '/', 'http://viewer').pathname;
    if (path === '/') return reply(response, 200, 'text/html; charset=utf-8', page);
    if (path === HEALTH_PATH) {
      const url = new URL(request.url ?? '/', 'http://viewer');
      void healthResponse(options.healthStore, url, options.healthSource).then((answer) =>
        reply(response, answer.status, answer.type, answer.body),
      );
      return;
    }
    if (path === '/api/runs')
      return reply(response, 200, 'application/json', JSON.stringify(store.list()));
    const run = /^\/api\/runs\/(.+)$/.exec(path);
    const view = run?.[1] === undefined ? undefined : store.get(decodeURIComponent(run[1]));
    if (view)
      return reply(
        response,
        200,
        'application/json',
        JSON.stringify({ ...view, events: store.events(view.id) }),
      );
    return reply(response, 404, 'text/plain', 'not found\n');
  });
  server.on('upgrade', (request: IncomingMessage, socket, head) => {
    socket.on('error', () => socket.destroy());
    const isWatcher = new URL(request.url ?? '/', 'http://viewer').pathname === WATCH_PATH;
    const origin = request.headers.origin;
    const allowed =
      isAllowedHost(request.headers.host, host, port) &&
      (isWatcher
        ? isAllowedOrigin(origin, host, port, [])
        : origin === undefined || isAllowedOrigin(origin, host, port, options.reportOrigins ?? []));
    if (!allowed) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      ws.on('error', () => ws.terminate());
      if (isWatcher) {
        watchers.set(ws, new Set());
        ws.on('close', () => watchers.delete(ws));
        for (const view of store.list()) void publish(view.id, ws);
        return;
      }
      connections += 1;
      const source = `c${connections}`;
      ws.on('message', (data, isBinary) => {
        if (!isBinary) report(source, data.toString());
      });
      ws.on('close', () => {
        for (const view of store.disconnect(source)) updates.changed(view.id, view.status);
      });
    });
  });

  const bound = await listenOn(server, options.port ?? DEFAULT_VIEWER_PORT, host);
  port = bound.port;
  const { origin } = bound;
  return {
    url: `http://${origin}/`,
    inspectUrl: `ws://${origin}/`,
    host: bound.address,
    port,
    runs: () => store.list(),
    close: async () => {
      updates.stop();
      await warm;
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const defaultLoop = () =>
  createLoopMachine({ attempt: () => undefined, validate: () => ({ valid: true }) });

function reply(response: ServerResponse, status: number, type: string, body: string) {
  response.writeHead(status, {
    'content-type': type,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...(type.startsWith('text/html')
      ? { 'content-security-policy': "frame-ancestors 'none'" }
      : {}),
  });
  response.end(body);
}
