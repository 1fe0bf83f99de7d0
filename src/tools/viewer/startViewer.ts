import { createServer, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { createLoopMachine } from '../../core/chart/compileLoop.js';
import type { CheckpointStore } from '../../stores/kit/CheckpointStore.js';
import { catchAll, catchRequests, catchUpgrades } from './catchRequests.js';
import { createChartLayouter, type LayoutBudget } from './chartLayouter.js';
import { coalesceUpdates } from './coalesceUpdates.js';
import { HEALTH_PATH, healthResponse } from './health/healthRoute.js';
import { listenOn } from './listenOn.js';
import { renderPage } from './page/renderPage.js';
import { parseInspection } from './parseInspection.js';
import { RunStore, type RunStoreLimits } from './RunStore.js';
import { decodePathSegment, isAllowedHost, isAllowedOrigin } from './requestChecks.js';
import { runCharts } from './runCharts.js';
import type { RunView } from './runView.js';
import { type RequestTimeouts, serverTimeouts } from './serverTimeouts.js';
import { toJsonSafe } from './toJsonSafe.js';

/** Options of `startViewer`. */
export interface ViewerOptions extends Partial<RunStoreLimits>, RequestTimeouts {
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
  /**
   * What one chart may cost before it is drawn simply (`timeMs` of ELK on its own thread,
   * `maxStates`, `maxTransitions`): laying out never holds up serving. docs/viewer.md.
   */
  layoutBudget?: LayoutBudget;
  /**
   * Hears what failed inside the viewer: a request handler that threw (answered 500), a reporter
   * message that could not be taken. The viewer keeps serving either way. Default: nothing.
   */
  onError?: (error: unknown) => void;
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
  const timeouts = serverTimeouts(options, 'startViewer');
  const onError = options.onError ?? (() => {});
  const store = new RunStore(options);
  const watchers = new Map<WebSocket, Set<string>>();
  // Upgraded sockets leave the HTTP server's hands: close() ends them itself.
  const upgraded = new Set<Duplex>();
  let connections = 0;
  let port = 0;
  const page = renderPage({ mode: 'live', watchPath: WATCH_PATH }, 'loopchart run viewer');
  const layouter = createChartLayouter(options.layoutBudget);
  // The default loop as a reporter sends it: its chart is then ready before the first run.
  const warm = layouter
    .layout(JSON.stringify(toJsonSafe(defaultLoop().config)))
    .catch(() => undefined);

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
  const updates = coalesceUpdates((runId) => catchAll(() => publish(runId), onError));
  const charts = runCharts(
    (runId, chart) => {
      const updated = store.setChart(runId, chart);
      if (updated) updates.changed(updated.id, updated.status);
    },
    layouter.layout,
    onError,
  );
  const report = (source: string, text: string) => {
    const message = parseInspection(text);
    if (!message) return;
    const { run, definition, linked, evicted } = store.ingest(source, message);
    for (const id of evicted) {
      updates.forget(id);
      charts.forget(id);
      const removed = JSON.stringify({ type: 'removed', id });
      for (const watcher of watchers.keys()) send(watcher, removed);
    }
    updates.changed(run.id, run.status);
    if (definition !== undefined) charts.define(run.id, definition);
    charts.update(run);
    if (!linked) return;
    updates.changed(linked.run.id, linked.run.status);
    if (linked.definition !== undefined) charts.define(linked.run.id, linked.definition);
    charts.update(linked.run);
  };

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxMessageBytes ?? 8 * 1024 * 1024,
  });
  wss.on('error', onError);
  const server = createServer(
    timeouts,
    catchRequests((request, response) => {
      if (!isAllowedHost(request.headers.host, host, port))
        return reply(response, 421, 'text/plain', 'unknown host\n');
      if (request.method !== 'GET' && request.method !== 'HEAD')
        return reply(response, 405, 'text/plain', 'GET only\n');
      const url = URL.parse(request.url ?? '/', 'http://viewer');
      if (!url) return reply(response, 400, 'text/plain', 'not a valid path\n');
      const path = url.pathname;
      if (path === '/') return reply(response, 200, 'text/html; charset=utf-8', page);
      if (path === HEALTH_PATH) {
        return healthResponse(options.healthStore, url, options.healthSource).then((answer) =>
          reply(response, answer.status, answer.type, answer.body),
        );
      }
      if (path === '/api/runs')
        return reply(response, 200, 'application/json', JSON.stringify(store.list()));
      const run = /^\/api\/runs\/(.+)$/.exec(path);
      const runId = run ? decodePathSegment(run[1]) : undefined;
      if (run && runId === undefined)
        return reply(response, 400, 'text/plain', 'the run id is not valid percent-encoding\n');
      const view = runId === undefined ? undefined : store.get(runId);
      if (view)
        return reply(
          response,
          200,
          'application/json',
          JSON.stringify({ ...view, events: store.events(view.id) }),
        );
      return reply(response, 404, 'text/plain', 'not found\n');
    }, onError),
  );
  server.on(
    'upgrade',
    catchUpgrades((request, socket, head) => {
      upgraded.add(socket);
      socket.once('close', () => upgraded.delete(socket));
      const isWatcher = URL.parse(request.url ?? '/', 'http://viewer')?.pathname === WATCH_PATH;
      const origin = request.headers.origin;
      const allowed =
        isAllowedHost(request.headers.host, host, port) &&
        (isWatcher
          ? isAllowedOrigin(origin, host, port, [])
          : origin === undefined ||
            isAllowedOrigin(origin, host, port, options.reportOrigins ?? []));
      if (!allowed) {
        socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n', () => socket.destroy());
        return;
      }
      wss.handleUpgrade(request, socket, head, (ws) => {
        ws.on('error', () => ws.terminate());
        if (isWatcher) {
          watchers.set(ws, new Set());
          ws.on('close', () => watchers.delete(ws));
          // in order, one after the other: the page follows the newest run it is sent
          const runs = store.list();
          catchAll(async () => {
            for (const view of runs) await publish(view.id, ws);
          }, onError);
          return;
        }
        connections += 1;
        const source = `c${connections}`;
        ws.on('message', (data, isBinary) => {
          if (!isBinary) catchAll(() => report(source, data.toString()), onError);
        });
        ws.on('close', () =>
          catchAll(() => {
            for (const view of store.disconnect(source)) updates.changed(view.id, view.status);
          }, onError),
        );
      });
    }, onError),
  );

  const bound = await listenOn(server, options.port ?? DEFAULT_VIEWER_PORT, host);
  // once listening: a listen error (port in use) is the caller's, from listenOn
  server.on('error', onError);
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
      await layouter.close();
      await warm;
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      for (const socket of upgraded) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await layouter.close();
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
