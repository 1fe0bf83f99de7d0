import type { ServerOptions } from 'node:http';
import { LoopConfigError } from '../../core/vocabulary/LoopConfigError.js';

/** How long a client may take to send a request's headers (docs/api.md, docs/viewer.md). */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** How long a client may take to send a whole request, body included. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** Node checks the two timeouts on a timer; this is its longest period, so a cut is this late at most. */
const MAX_CHECK_INTERVAL_MS = 500;

/** The request time limits of `serveRuns` and `startViewer`. */
export interface RequestTimeouts {
  /** Headers must arrive within this. Default 10,000 ms. */
  headersTimeoutMs?: number;
  /** The whole request (headers and body) must arrive within this. Default 30,000 ms. */
  requestTimeoutMs?: number;
}

/**
 * The `createServer` options that enforce the time limits: a slow client (headers sent byte by
 * byte, a trickling body) is cut with `408` at its limit, at most 500 ms late (Node's own check
 * runs every 30 s unless told otherwise, so a 10 s limit cut at up to 40 s). Throws
 * `LoopConfigError` naming a limit that is not a positive integer, or a request limit shorter than
 * the headers limit.
 * @example createServer(serverTimeouts({ headersTimeoutMs: 5000 }), handle);
 */
export function serverTimeouts(limits: RequestTimeouts, owner = 'server'): ServerOptions {
  const headersTimeout = limits.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const requestTimeout = limits.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const problems: string[] = [];
  for (const [field, value] of [
    ['headersTimeoutMs', headersTimeout],
    ['requestTimeoutMs', requestTimeout],
  ] as const) {
    if (!Number.isInteger(value) || value <= 0) {
      problems.push(
        `  - ${field}: must be a positive integer of milliseconds, got ${String(value)}`,
      );
    }
  }
  if (problems.length === 0 && requestTimeout < headersTimeout) {
    problems.push('  - requestTimeoutMs: must not be shorter than headersTimeoutMs');
  }
  if (problems.length > 0) {
    throw new LoopConfigError(`loopchart: invalid ${owner} options\n${problems.join('\n')}`);
  }
  return {
    headersTimeout,
    requestTimeout,
    connectionsCheckingInterval: Math.min(
      MAX_CHECK_INTERVAL_MS,
      Math.max(10, Math.floor(headersTimeout / 4)),
    ),
  };
}
