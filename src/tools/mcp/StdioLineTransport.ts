import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  isJSONRPCRequest,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/** The longest line `loopchart mcp` reads: the SDK's own stdio limit. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;
/** Past this many bytes of lines read and not yet handled, reading pauses. */
const MAX_QUEUED_BYTES = 16 * 1024 * 1024;

/**
 * MCP over newline-delimited JSON on a pair of streams, like the SDK's `StdioServerTransport`, but
 * it never stops serving over one bad line: a line over `maxLineBytes` is skipped unread and
 * answered with a JSON-RPC error (`-32600`, `id: null`: the id is in the part not read), a line
 * that is not JSON with `-32700`, one that is not a JSON-RPC message with `-32600`. Each is also
 * reported to `onerror`. Lines are handled one per turn of the event loop (reading pauses while
 * 16 MiB wait), so a flood of requests never holds up timers. When the input ends it closes once
 * every request it read was answered, so `printf '…' | loopchart mcp` gets all its answers.
 * @example await server.connect(new StdioLineTransport(process.stdin, process.stdout));
 */
export class StdioLineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #input: Readable;
  readonly #output: Writable;
  readonly #maxLineBytes: number;
  readonly #unanswered = new Set<RequestId>();
  #line: Buffer[] = [];
  readonly #queue: string[] = [];
  #queuedBytes = 0;
  #handling = false;
  #lineBytes = 0;
  #skipping = false;
  #ended = false;
  #closed = false;

  constructor(input: Readable, output: Writable, options: { maxLineBytes?: number } = {}) {
    this.#input = input;
    this.#output = output;
    this.#maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  }

  async start(): Promise<void> {
    this.#input.on('data', this.#onData);
    this.#input.on('end', this.#onEnd);
    this.#input.on('error', this.#onStreamError);
    this.#output.on('error', this.#onStreamError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if ('id' in message && ('result' in message || 'error' in message)) {
      this.#unanswered.delete(message.id as RequestId);
    }
    return this.#write(message).then(() => this.#closeIfDone());
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#input.off('data', this.#onData).off('end', this.#onEnd);
    if (this.#input.listenerCount('data') === 0) this.#input.pause();
    this.#line = [];
    this.onclose?.();
  }

  readonly #onData = (chunk: Buffer | string) => {
    let rest = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let end = rest.indexOf(10); ; end = rest.indexOf(10)) {
      const part = end === -1 ? rest : rest.subarray(0, end);
      if (!this.#skipping && this.#lineBytes + part.length > this.#maxLineBytes) {
        this.#skipping = true;
        this.#line = [];
        this.#lineBytes = 0;
        this.#refuse(
          ErrorCode.InvalidRequest,
          `Invalid Request: a message over ${this.#maxLineBytes} bytes was skipped unread`,
        );
      }
      if (!this.#skipping) {
        this.#line.push(part);
        this.#lineBytes += part.length;
      }
      if (end === -1) return;
      const line = Buffer.concat(this.#line).toString('utf8').replace(/\r$/, '');
      const skipped = this.#skipping;
      this.#line = [];
      this.#lineBytes = 0;
      this.#skipping = false;
      if (!skipped && line.trim() !== '') {
        this.#queue.push(line);
        this.#queuedBytes += line.length;
        if (this.#queuedBytes > MAX_QUEUED_BYTES) this.#input.pause();
        this.#handleNext();
      }
      rest = rest.subarray(end + 1);
    }
  };

  #handleNext() {
    if (this.#handling) return;
    this.#handling = true;
    setImmediate(() => {
      this.#handling = false;
      const line = this.#queue.shift();
      if (line === undefined || this.#closed) return;
      this.#queuedBytes -= line.length;
      if (this.#queuedBytes <= MAX_QUEUED_BYTES && this.#input.isPaused()) this.#input.resume();
      this.#receive(line);
      if (this.#queue.length > 0) this.#handleNext();
      else void this.#closeIfDone();
    });
  }

  readonly #onEnd = () => {
    this.#ended = true;
    void this.#closeIfDone();
  };

  readonly #onStreamError = (error: Error) => {
    this.onerror?.(error);
    void this.close();
  };

  #receive(line: string) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return this.#refuse(ErrorCode.ParseError, 'Parse error: the line is not JSON');
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id = (value as { id?: unknown } | null)?.id;
      return this.#refuse(
        ErrorCode.InvalidRequest,
        'Invalid Request: not a JSON-RPC 2.0 message',
        typeof id === 'string' || typeof id === 'number' ? id : null,
      );
    }
    const message = parsed.data;
    if (isJSONRPCRequest(message)) this.#unanswered.add(message.id);
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  #refuse(code: number, message: string, id: RequestId | null = null) {
    this.onerror?.(new Error(message));
    void this.#write({ jsonrpc: '2.0', id, error: { code, message } });
  }

  #write(message: unknown): Promise<void> {
    if (this.#closed || this.#output.writableEnded) return Promise.resolve();
    return new Promise((resolve) => {
      this.#output.write(`${JSON.stringify(message)}\n`, () => resolve());
    });
  }

  async #closeIfDone() {
    if (this.#ended && this.#unanswered.size === 0 && this.#queue.length === 0) await this.close();
  }
}
