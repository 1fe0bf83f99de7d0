import { connect } from 'node:net';

/** What a raw request got back: the status line's code (0 if none), and whether the server cut it. */
export interface RawReply {
  status: number;
  text: string;
}

/**
 * Sends bytes as they are over TCP (no client-side checks, so any method, target or header goes)
 * and collects the reply until the server closes the connection or `giveUpMs` passes.
 * @example const { status } = await rawRequest(port, 'GET /api/runs/%E0 HTTP/1.1\r\nHost: …\r\n\r\n');
 */
export function rawRequest(
  port: number,
  bytes: string | Buffer,
  giveUpMs = 5_000,
): Promise<RawReply> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let text = '';
    const timer = setTimeout(() => socket.destroy(), giveUpMs);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ status: statusOf(text), text });
    });
  });
}

/** The status code of the first response in `text`, or 0. */
export const statusOf = (text: string) => Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);

/** A GET that closes its connection: the request line and headers as bytes. */
export const plainGet = (port: number, target: string, extra = '') =>
  `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n${extra}\r\n`;
