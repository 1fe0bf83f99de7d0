import net from 'node:net';
import tls from 'node:tls';
import { WebSocket } from 'ws';
import type { InspectionEvent, Observer } from 'xstate';
import { toWireEvent } from './toWireEvent.js';

type ConnectOptions = tls.ConnectionOptions & { socketPath?: string; host?: string };
const serverName = (opts: ConnectOptions) => (opts.host && !net.isIP(opts.host) ? opts.host : '');

/** Options of `connectToViewer`. */
export interface ConnectToViewerOptions {
  /** Called once if the viewer cannot be reached or the connection drops. Default: one warning. */
  onError?: (error: Error) => void;
  /** Give up connecting after this long. Default 5000 ms. */
  connectTimeoutMs?: number;
  /** Events kept while connecting; older ones are dropped first. Default 2000. */
  maxBufferedEvents?: number;
}

/** A connection from loops in this process to a run viewer. */
export interface ViewerConnection {
  /** Pass as `inspect` to `runLoop`, `runLoopMachine` or `createActor`. */
  inspect: Observer<InspectionEvent>;
  /** Resolves `true` once connected, `false` if the viewer could not be reached. Never rejects. */
  ready: Promise<boolean>;
  /** Delivers what is buffered, then closes. Await it before the process ends. */
  close(): Promise<void>;
}

/**
 * Reports every actor inspected through `inspect` to a loopchart viewer (`loopchart view`) over
 * WebSocket, in `@statelyai/inspect`'s wire format. Unlike that package's WebSocket inspector it
 * tries once (no retry loop) and never keeps Node alive once connected: await `close()` to be sure
 * the last events arrived. If the viewer is unreachable, events are dropped after one `onError`.
 * @example const viewer = connectToViewer('ws://127.0.0.1:4242');
 *          await runLoop(config, input, { inspect: viewer.inspect });
 *          await viewer.close();
 */
export function connectToViewer(
  url = 'ws://127.0.0.1:4242',
  options: ConnectToViewerOptions = {},
): ViewerConnection {
  const { connectTimeoutMs = 5000, maxBufferedEvents = 2000 } = options;
  const onError =
    options.onError ??
    ((error: Error) => console.warn(`loopchart: viewer at ${url}: ${error.message}`));
  let buffer: string[] = [];
  let failed = false;
  let tcp: net.Socket | undefined;
  const socket = new WebSocket(url, {
    handshakeTimeout: connectTimeoutMs,
    // ws's own connectors, keeping the socket so it can be unref'd once connected.
    createConnection: ((opts: ConnectOptions) => {
      tcp = url.startsWith('wss:')
        ? tls.connect({ ...opts, path: undefined, servername: opts.servername ?? serverName(opts) })
        : net.connect({ ...opts, path: opts.socketPath } as net.NetConnectOpts);
      return tcp;
    }) as unknown as typeof net.createConnection,
  });
  const fail = (error: Error) => {
    if (failed) return;
    failed = true;
    buffer = [];
    onError(error);
  };
  const ready = new Promise<boolean>((resolve) => {
    socket.once('open', () => {
      for (const message of buffer) socket.send(message);
      buffer = [];
      tcp?.unref();
      resolve(true);
    });
    socket.once('close', () => resolve(false));
  });
  socket.on('error', (error) => fail(error));
  socket.once('close', (code) => {
    if (code !== 1000 && code !== 1005) fail(new Error(`connection closed (code ${code})`));
  });
  socket.on('message', () => {});

  const send = (message: string) => {
    if (socket.readyState === WebSocket.OPEN) socket.send(message);
    else if (socket.readyState === WebSocket.CONNECTING) {
      buffer.push(message);
      if (buffer.length > maxBufferedEvents) buffer.shift();
    }
  };
  return {
    inspect: {
      next: (event) => {
        const wire = toWireEvent(event);
        if (wire) send(JSON.stringify(wire));
      },
    },
    ready,
    close: async () => {
      const open = await ready;
      if (!open || socket.readyState !== WebSocket.OPEN) return;
      tcp?.ref();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => socket.terminate(), 2000);
        socket.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
        socket.close(1000);
      });
    },
  };
}
