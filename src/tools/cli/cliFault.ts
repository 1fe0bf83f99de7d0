/**
 * The faults every command reports the same way: one line, `<command>: <sentence>`, and one exit
 * code (docs/cli.md has the table). Exit 2: what the command line names cannot be used (fix the
 * command); exit 1: the environment refused for now (try again, or elsewhere).
 */
export type FaultKind =
  | 'usage'
  | 'missing'
  | 'corrupt'
  | 'unreadable'
  | 'locked'
  | 'unreachable'
  | 'port_in_use'
  | 'cannot_write';

const EXIT_CODES: Record<FaultKind, 1 | 2> = {
  usage: 2,
  missing: 2,
  corrupt: 2,
  unreadable: 2,
  locked: 1,
  unreachable: 1,
  port_in_use: 1,
  cannot_write: 1,
};

/** A fault the CLI reports in one line (without a stack) and exits with its code. */
export class CliFault extends Error {
  override readonly name = 'CliFault';
  readonly exitCode: 1 | 2;

  constructor(
    readonly kind: FaultKind,
    message: string,
  ) {
    super(message);
    this.exitCode = EXIT_CODES[kind];
  }
}

export function isCliFault(error: unknown): error is CliFault {
  return error instanceof CliFault;
}

/** System error codes in words, for messages a person reads. */
const WORDS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOENT: 'no such file or folder',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EISDIR: 'it is a folder',
  EEXIST: 'a file is in the way',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'the connection was reset',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name could not be looked up',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ETIMEDOUT: 'the connection timed out',
  EADDRINUSE: 'port in use',
  EADDRNOTAVAIL: 'no such address on this machine',
};

/** An error's system code (`ECONNREFUSED`), also from the first error of an `AggregateError`. */
export function systemCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  const first = (error as { errors?: unknown[] } | null)?.errors?.[0];
  return first === undefined ? undefined : systemCode(first);
}

/** A system error code in words, or the code itself. */
export function inWords(code: string | undefined, fallback: string): string {
  return (code && WORDS[code]) ?? fallback;
}

/** The fault of a failed `listen` on `host:port`, or undefined for another error. */
export function listenFault(error: unknown, host: string, port: number): CliFault | undefined {
  const code = systemCode(error);
  const where = `cannot listen on ${host}:${port}`;
  if (code === 'EADDRINUSE')
    return new CliFault('port_in_use', `${where} (port in use); try --port 0`);
  if (code === 'EACCES' || code === 'EPERM') {
    return new CliFault(
      'port_in_use',
      `${where} (permission denied); try a port above 1023, or --port 0`,
    );
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return new CliFault('usage', `${where} (${inWords(code, code)}); check --host`);
  }
  return undefined;
}

/** The fault of a failed file write to `path` (a report, the demo's folder), or undefined. */
export function writeFault(error: unknown, path: string): CliFault | undefined {
  const code = systemCode(error);
  if (!code || !(code in WORDS)) return undefined;
  return new CliFault('cannot_write', `cannot write ${path} (${inWords(code, code)})`);
}
