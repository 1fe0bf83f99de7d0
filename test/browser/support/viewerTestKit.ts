import { type LoopConfig, runLoop } from 'loopchart';
import { connectToViewer, type RunViewer, startViewer } from 'loopchart/viewer';
import { afterAll, beforeAll } from 'vitest';
import { WebSocket } from 'ws';
import { correctable, deferred, valid } from '../../support/scriptedSteps.js';
import { launchChromium } from './browser.js';

/** Starting Chromium can take a while on a busy machine. */
export const HOOK_TIMEOUT = 60_000;

/**
 * A viewer on a free port and a headless Chromium for the test file, started before its tests and
 * closed after them. Read `viewer` and `browser` inside tests, not at load time.
 */
export function viewerAndBrowser() {
  const env = {} as { viewer: RunViewer; browser: Awaited<ReturnType<typeof launchChromium>> };
  beforeAll(async () => {
    [env.viewer, env.browser] = await Promise.all([startViewer({ port: 0 }), launchChromium()]);
  }, HOOK_TIMEOUT);
  afterAll(async () => {
    await env.browser?.close();
    await env.viewer?.close();
  }, HOOK_TIMEOUT);
  return env;
}

/** How many sockets, servers and timers are open (what would keep Node alive). */
export function openHandles() {
  const kinds = process.getActiveResourcesInfo();
  return {
    sockets: kinds.filter((kind) => kind.startsWith('TCP')).length,
    timers: kinds.filter((kind) => kind === 'Timeout').length,
  };
}

/** Waits (up to 2 s) until no more handles are open than `before`; returns what is open then. */
export async function settledHandles(before: ReturnType<typeof openHandles>) {
  for (let tries = 0; tries < 100; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const now = openHandles(); // read after the timer fired, so it does not count itself
    if (now.sockets <= before.sockets && now.timers <= before.timers) return now;
  }
  return openHandles();
}

/** Runs a loop that reports to the viewer at `inspectUrl`, and closes the connection after. */
export async function runReported<I, C>(inspectUrl: string, config: LoopConfig<I, C>, input: I) {
  const viewer = connectToViewer(inspectUrl, { onError: () => {} });
  try {
    return await runLoop(config, input, { inspect: viewer.inspect });
  } finally {
    await viewer.close();
  }
}

/** Opens a raw WebSocket and resolves once it is open (rejects with the handshake error). */
export function openSocket(url: string, headers: Record<string, string> = {}) {
  const socket = new WebSocket(url, { headers });
  return new Promise<WebSocket>((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** A loop whose validator rejects every candidate with a new correctable message. */
export function exhaustingLoop(
  maxRetries: number,
  candidate = (n: number) => `draft ${n}`,
): LoopConfig<string, string> {
  let n = 0;
  return {
    maxRetries,
    attempt: () => {
      n += 1;
      return candidate(n);
    },
    validate: (draft) => ({
      valid: false,
      error: { severity: 'correctable', message: `not yet: ${draft}` },
    }),
  };
}

/**
 * A loop reporting to the viewer whose attempt `n` waits for `gates[n - 1]`: drafts are rejected
 * until `draft <passOn>`. Close `connection` when it is done.
 */
export function gatedLoop(inspectUrl: string, maxRetries: number, passOn: number) {
  const gates = Array.from({ length: passOn }, () => deferred<void>());
  const connection = connectToViewer(inspectUrl, { onError: () => {} });
  const running = runLoop<string, string>(
    {
      maxRetries,
      attempt: async ({ attempt }) => {
        await gates[attempt - 1]?.promise;
        return `draft ${attempt}`;
      },
      validate: (draft) =>
        draft === `draft ${passOn}` ? valid : correctable(`not yet (${draft})`),
    },
    'q',
    { inspect: connection.inspect },
  );
  return { gates, connection, running };
}
