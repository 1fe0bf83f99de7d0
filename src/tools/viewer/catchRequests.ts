import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

type RequestHandler = (request: IncomingMessage, response: ServerResponse) => unknown;
type UpgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer) => unknown;

/**
 * Runs `work` so that nothing it throws or rejects escapes: the failure goes to `onError` (which
 * may not throw either). Every callback of a server runs through it, so no request, message or
 * timer can end the process.
 * @example socket.on('message', (data) => catchAll(() => report(data), onError));
 */
export function catchAll(work: () => unknown, onError: (error: unknown) => void): void {
  const failed = (error: unknown) => {
    try {
      onError(error);
    } catch {
      // the error hook failed too: nothing is left to tell
    }
  };
  try {
    const result = work();
    if (result instanceof Promise) result.catch(failed);
  } catch (error) {
    failed(error);
  }
}

/**
 * Wraps an HTTP request handler in one catch: whatever it throws or rejects is answered 500 (or,
 * once the reply has begun, the connection is cut) and reported to `onError`; the server keeps
 * serving. A request stream's errors (a client that went away) are expected and ignored; the
 * response's are reported.
 * @example createServer(catchRequests(handle, (error) => log(`request failed: ${error}`)));
 */
export function catchRequests(
  handle: RequestHandler,
  onError: (error: unknown) => void,
  internalError: (response: ServerResponse) => void = plainInternalError,
): RequestHandler {
  return (request, response) => {
    request.on('error', () => {});
    response.on('error', onError);
    catchAll(
      () => handle(request, response),
      (error) => {
        onError(error);
        if (response.headersSent) response.destroy();
        else
          catchAll(
            () => internalError(response),
            () => response.destroy(),
          );
      },
    );
  };
}

/**
 * Wraps an `upgrade` handler the same way: an error on the socket or a throw destroys the socket
 * (reported to `onError`), never the server.
 * @example server.on('upgrade', catchUpgrades(upgrade, onError));
 */
export function catchUpgrades(handle: UpgradeHandler, onError: (error: unknown) => void) {
  return (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => socket.destroy());
    catchAll(
      () => handle(request, socket, head),
      (error) => {
        onError(error);
        socket.destroy();
      },
    );
  };
}

function plainInternalError(response: ServerResponse) {
  response.writeHead(500, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
  response.end('internal error\n');
}
