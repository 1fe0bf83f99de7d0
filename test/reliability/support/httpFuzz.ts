import { connect } from 'node:net';
import fc from 'fast-check';
import { statusOf } from '../../support/rawHttp.js';

/** One generated request: the bytes to send, how to send them, and what follows an upgrade. */
export interface RequestPlan {
  head: string;
  body: Buffer;
  /** `whole`: at once; `split`: in pieces a turn apart; `slow`: trickled over ~200 ms; `abort`: half, then the socket is destroyed. */
  delivery: 'whole' | 'split' | 'slow' | 'abort';
  /** WebSocket frames sent once the server answered 101. */
  frames: Buffer[];
}

/** What a server is fuzzed with: its routes and what it expects in them. */
export interface FuzzTarget {
  port: number;
  routes: readonly string[];
  /** Run ids and similar path segments worth hitting, besides generated ones. */
  segments: readonly string[];
  token?: string;
  /** Inspection messages (text frames) to send on an upgraded socket. */
  messages?: fc.Arbitrary<string>;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE', 'CONNECT'];
const ODD_METHODS = ['PROPFIND', 'get', 'BREW', 'M-SEARCH', 'G\u0000T', 'X'.repeat(300), ''];
const BAD_SEGMENTS = [
  '%E0',
  '%',
  '%%',
  '%C0%AF',
  '%FF%FE',
  '%00',
  '%2F..%2F',
  '..',
  '%E0%80%80',
  '\u00e9',
];
const HOSTILE_TARGETS = [
  '//',
  'http://[bad/x',
  '*',
  'http://127.0.0.1:1/api/runs',
  'http://a:b@/',
  '/%',
  '?',
  '#x',
  '',
];
const QUERIES = [
  '',
  '?status=paused',
  '?status=paused&status=done',
  '?since=garbage',
  '?limit=-1',
  '?limit=1e309',
  '?cursor=%E0',
  '?loop=constructor',
  '?__proto__=1',
  `?q=${'a'.repeat(5000)}`,
];

const segment = (target: FuzzTarget) =>
  fc.oneof(
    fc.constantFrom(...target.segments, ...BAD_SEGMENTS),
    fc.string({ maxLength: 40 }).map((text) => encodeURIComponent(text)),
    fc.string({ unit: 'binary', maxLength: 20 }),
    fc.constant('a'.repeat(9_000)),
  );

const pathOf = (target: FuzzTarget) =>
  fc.oneof(
    {
      weight: 8,
      arbitrary: fc
        .tuple(fc.constantFrom(...target.routes), segment(target), fc.constantFrom(...QUERIES))
        .map(([route, seg, query]) => route.replace('{id}', seg) + query),
    },
    { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_TARGETS) },
  );

const header = (target: FuzzTarget) =>
  fc.oneof(
    fc.constantFrom(
      'Content-Type: application/json',
      'Content-Type: text/plain',
      'Content-Type: application/json; charset=latin1',
      `Authorization: Bearer ${target.token ?? 'x'}`,
      'Authorization: Bearer wrong-token-0123456789',
      'Authorization: Bearer',
      `Origin: http://127.0.0.1:${target.port}`,
      'Origin: http://evil.example',
      'Origin: null',
      'Content-Length: 5',
      'Content-Length: -1',
      'Content-Length: abc',
      'Content-Length: 99999999999',
      'Transfer-Encoding: chunked',
      'Transfer-Encoding: gzip, chunked',
      'Expect: 100-continue',
      'X-Bad\u0001: y',
      'X-Space : y',
      'Host: evil.example',
      `X-Huge: ${'h'.repeat(20_000)}`,
      'Connection: keep-alive',
    ),
    fc
      .tuple(fc.string({ maxLength: 20 }), fc.string({ maxLength: 60 }))
      .map(([name, value]) => `${name}: ${value}`),
  );

/** Large bodies, made once and shared by every plan that sends one. */
const BIG_BODIES = ['x'.repeat(100_000), '{"a":'.repeat(20_000), 'z'.repeat(2 * 1024 * 1024)].map(
  (text) => Buffer.from(text),
);

const body = fc
  .oneof(
    { weight: 3, arbitrary: fc.constant('') },
    {
      weight: 3,
      arbitrary: fc
        .record({
          event: fc.record({
            type: fc.constantFrom('review.continue', 'review.modify', 'clarification.answer', 'x'),
          }),
          ifSeq: fc.integer({ min: -1, max: 5 }),
          wait: fc.boolean(),
        })
        .map((value) => JSON.stringify(value)),
    },
    { weight: 2, arbitrary: fc.json({ maxDepth: 4 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  )
  .map((text) => Buffer.from(text));
const bodies = fc.oneof(
  { weight: 9, arbitrary: body },
  { weight: 1, arbitrary: fc.constantFrom(...BIG_BODIES) },
);

/** A client WebSocket frame (masked, as a client must), or raw garbage. */
function frame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length;
  const size =
    length < 126
      ? [length]
      : length < 65_536
        ? [126, length >> 8, length & 255]
        : [
            127,
            0,
            0,
            0,
            0,
            (length >>> 24) & 255,
            (length >> 16) & 255,
            (length >> 8) & 255,
            length & 255,
          ];
  return Buffer.concat([
    Buffer.from([0x80 | opcode, 0x80 | (size[0] as number), ...size.slice(1), 0, 0, 0, 0]),
    payload,
  ]);
}

const frames = (target: FuzzTarget) =>
  fc.array(
    fc.oneof(
      (target.messages ?? fc.json()).map((text) => frame(1, Buffer.from(text))),
      fc.json().map((text) => frame(1, Buffer.from(text))),
      fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
      fc.constantFrom(
        frame(2, Buffer.from([1, 2, 3])),
        frame(3, Buffer.alloc(0)),
        frame(8, Buffer.alloc(0)),
        frame(9, Buffer.from('ping')),
        frame(1, Buffer.from([0xff, 0xfe])),
      ),
    ),
    { maxLength: 6 },
  );

const upgrade = fc.constantFrom(
  'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
  'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: not base64!',
  'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 99\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
  'Upgrade: h2c\r\nConnection: Upgrade',
  'Upgrade: websocket\r\nConnection: Upgrade',
);

/**
 * Requests a hostile client could send to `target`: any method (odd ones too), its routes with
 * bad percent-encodings, huge and odd segments and queries, unparsable targets, the right and
 * wrong Host, token, origin, content type and length, headers Node refuses, bodies from none to
 * 2 MiB (JSON answers, garbage, unterminated), delivered at once, in pieces, trickled or cut
 * off; a fifth of them WebSocket upgrades, valid or not, followed by frames valid or garbage.
 */
export function requestPlans(target: FuzzTarget): fc.Arbitrary<RequestPlan> {
  return fc
    .record({
      method: fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...METHODS) },
        { weight: 1, arbitrary: fc.constantFrom(...ODD_METHODS) },
      ),
      path: pathOf(target),
      host: fc.constantFrom(
        `127.0.0.1:${target.port}`,
        `127.0.0.1:${target.port}`,
        `127.0.0.1:${target.port}`,
        `localhost:${target.port}`,
        'evil.example',
        '',
      ),
      headers: fc.array(header(target), { maxLength: 4 }),
      upgrade: fc.option(upgrade, { freq: 4 }),
      body: bodies,
      declareLength: fc.boolean(),
      delivery: fc.constantFrom('whole', 'whole', 'whole', 'split', 'slow', 'abort'),
      frames: frames(target),
    })
    .map(
      ({
        method,
        path,
        host,
        headers,
        upgrade: upgradeLines,
        body: bytes,
        declareLength,
        delivery,
        frames: sent,
      }) => {
        const lines = [`${method} ${path} HTTP/1.1`];
        if (host) lines.push(`Host: ${host}`);
        lines.push(...headers);
        if (upgradeLines) lines.push(upgradeLines);
        else if (!headers.includes('Connection: keep-alive')) lines.push('Connection: close');
        if (declareLength && bytes.length > 0) lines.push(`Content-Length: ${bytes.length}`);
        return {
          head: `${lines.join('\r\n')}\r\n\r\n`,
          body: bytes,
          delivery,
          frames: upgradeLines ? sent : [],
        };
      },
    );
}

/** What one request got: the reply's status (0: none), and how long it took. */
export interface PlanResult {
  status: number;
  ms: number;
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends one plan over a fresh connection and waits for the server to close it, or gives up. */
export function sendPlan(port: number, plan: RequestPlan, giveUpMs: number): Promise<PlanResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    let upgraded = false;
    const timer = setTimeout(() => socket.destroy(), giveUpMs);
    socket.setEncoding('latin1');
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ status: statusOf(reply), ms: performance.now() - started });
    });
    socket.on('data', (chunk: string) => {
      reply += chunk;
      if (!upgraded && statusOf(reply) === 101 && reply.includes('\r\n\r\n')) {
        upgraded = true;
        void (async () => {
          for (const bytes of plan.frames) {
            if (socket.destroyed) return;
            socket.write(bytes);
            await turn();
          }
          socket.end(frame(8, Buffer.alloc(0)));
        })();
      }
    });
    socket.on('connect', () => {
      void (async () => {
        const whole = Buffer.concat([Buffer.from(plan.head, 'latin1'), plan.body]);
        if (plan.delivery === 'whole') socket.write(whole);
        else if (plan.delivery === 'abort') {
          socket.write(whole.subarray(0, Math.floor(whole.length / 2)));
          await turn();
          socket.destroy();
        } else {
          const pieces = plan.delivery === 'slow' ? 10 : 4;
          const size = Math.ceil(whole.length / pieces);
          for (let at = 0; at < whole.length && !socket.destroyed; at += size) {
            socket.write(whole.subarray(at, at + size));
            await (plan.delivery === 'slow' ? sleep(20) : turn());
          }
        }
      })();
    });
  });
}

/**
 * Runs `count` plans from `plans` against the server, `concurrency` at a time, from one fast-check
 * seed; tallies the reply statuses.
 */
export async function fuzz(
  port: number,
  plans: fc.Arbitrary<RequestPlan>,
  options: { count: number; concurrency: number; seed: number; giveUpMs: number },
): Promise<{ statuses: Record<number, number>; sent: number }> {
  const all = fc.sample(plans, { numRuns: options.count, seed: options.seed });
  const statuses: Record<number, number> = {};
  let next = 0;
  const worker = async () => {
    while (next < all.length) {
      const plan = all[next] as RequestPlan;
      next += 1;
      const { status } = await sendPlan(port, plan, options.giveUpMs);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return { statuses, sent: all.length };
}
