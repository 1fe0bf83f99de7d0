import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Starts `server` on `host:port` (0 picks a free port) and resolves to the bound port and the
 * `host:port` a URL names (IPv6 hosts in brackets); rejects on a listen error (EADDRINUSE…).
 * @example const { port, origin } = await listenOn(server, 0, '127.0.0.1');
 */
export async function listenOn(
  server: Server,
  port: number,
  host: string,
): Promise<{ port: number; address: string; origin: string }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address() as AddressInfo;
  const origin = `${host.includes(':') ? `[${host}]` : host}:${bound.port}`;
  return { port: bound.port, address: bound.address, origin };
}
