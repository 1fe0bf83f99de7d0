import { APICallError } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';

/** One scripted reply: text (with its finish reason), a thrown API error, or a call that hangs until aborted. */
export type Reply =
  | string
  | { text: string; finish?: 'stop' | 'content-filter' | 'length'; tokens?: [number, number] }
  | { status: number; headers?: Record<string, string>; retryable?: boolean }
  | 'hang';

/** The AI SDK's mock model answering each call with the next scripted reply; records when each call came. */
export function scriptedModel(replies: Reply[]) {
  const calledAt: number[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async ({ abortSignal }) => {
      calledAt.push(Date.now());
      const reply = replies.shift() ?? '';
      if (reply === 'hang') {
        return new Promise<never>((_, reject) => {
          abortSignal?.addEventListener('abort', () => reject(abortSignal.reason), { once: true });
        });
      }
      if (typeof reply === 'object' && 'status' in reply) {
        throw new APICallError({
          message: reply.status === 429 ? 'Too Many Requests' : `HTTP ${reply.status}`,
          url: 'https://api.example.invalid/v1/chat',
          requestBodyValues: {},
          statusCode: reply.status,
          responseHeaders: reply.headers ?? {},
          isRetryable: reply.retryable ?? (reply.status === 429 || reply.status >= 500),
        });
      }
      const {
        text,
        finish = 'stop',
        tokens = [100, 20],
      } = typeof reply === 'string' ? { text: reply } : reply;
      return {
        content: text ? [{ type: 'text' as const, text }] : [],
        finishReason: { unified: finish, raw: finish },
        usage: {
          inputTokens: {
            total: tokens[0],
            noCache: tokens[0],
            cacheRead: undefined,
            cacheWrite: undefined,
          },
          outputTokens: { total: tokens[1], text: tokens[1], reasoning: undefined },
        },
        warnings: [],
      };
    },
  });
  return { model, calledAt };
}

/** The text of every message of the model's `n`th call (0-based), role-prefixed, one per line. */
export function promptOf(model: MockLanguageModelV3, n: number): string {
  const prompt = model.doGenerateCalls[n]?.prompt ?? [];
  return prompt
    .map((message) => {
      const content =
        typeof message.content === 'string'
          ? message.content
          : message.content.map((part) => ('text' in part ? part.text : '')).join('');
      return `${message.role}: ${content}`;
    })
    .join('\n');
}
