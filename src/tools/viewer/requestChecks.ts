const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * Only requests addressed to the viewer itself (by its bound host or a loopback name) are served,
 * so a web page cannot reach it through DNS rebinding. A viewer bound to `0.0.0.0`/`::` accepts
 * any host: binding there was the user's explicit choice.
 * @example isAllowedHost('127.0.0.1:4242', '127.0.0.1', 4242) // true
 */
export function isAllowedHost(header: string | undefined, host: string, port: number): boolean {
  if (host === '0.0.0.0' || host === '::') return true;
  if (header === undefined) return false;
  const names = new Set([...LOOPBACK, host.includes(':') ? `[${host}]` : host]);
  return [...names].some((name) => header.toLowerCase() === `${name}:${port}`);
}

/**
 * A browser origin is allowed when it is the viewer's own page (same host and port) or listed.
 * @example isAllowedOrigin('http://127.0.0.1:4242', '127.0.0.1', 4242, []) // true
 */
export function isAllowedOrigin(
  origin: string | undefined,
  host: string,
  port: number,
  allowed: readonly string[],
): boolean {
  if (origin === undefined) return false;
  if (allowed.includes(origin)) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return url.protocol === 'http:' && isAllowedHost(url.host, host, port);
}

/**
 * A percent-encoded path segment decoded, or `undefined` when it is not valid percent-encoding of
 * UTF-8 (`%E0`, `%zz`): the caller answers 400 instead of throwing.
 * @example decodePathSegment('a%2Fb') // 'a/b'
 */
export function decodePathSegment(segment: string | undefined): string | undefined {
  try {
    return decodeURIComponent(segment ?? '');
  } catch {
    return undefined;
  }
}
