import type { IncomingMessage } from 'node:http';

/** A request body: its JSON, or why it was refused (`too_large`, `not_json`). */
export type BodyResult =
  | { ok: true; value: unknown }
  | { ok: false; reason: 'too_large' | 'not_json' };

/**
 * Reads a JSON body of at most `maxBytes`: a larger `content-length` is refused before a byte
 * is read, and a body that streams past the limit is cut off there.
 */
export function readJsonBody(request: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > maxBytes) return Promise.resolve({ ok: false, reason: 'too_large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: BodyResult) => {
      if (done) return;
      done = true;
      resolve(result);
    };
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        request.removeAllListeners('data');
        request.resume();
        finish({ ok: false, reason: 'too_large' });
      } else chunks.push(chunk);
    });
    request.on('error', () => finish({ ok: false, reason: 'not_json' }));
    request.on('end', () => {
      try {
        finish({ ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      } catch {
        finish({ ok: false, reason: 'not_json' });
      }
    });
  });
}
