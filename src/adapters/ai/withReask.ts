import type { ModelMessage } from 'ai';
import type { ValidationError } from '../../core/vocabulary/validation.js';
import { isUnusableOutput } from './unusableOutput.js';

const MAX_PREVIOUS = 8000;

/**
 * The call with the last rejection put to the model: its previous reply as an assistant message
 * and the feedback as a user message, after the prompt or messages the call already has.
 */
export function withReask<O extends { prompt?: unknown; messages?: unknown; output?: unknown }>(
  call: O,
  feedback: ValidationError | undefined,
  previous: unknown,
  reask: ((feedback: ValidationError) => string) | undefined,
): O {
  if (!feedback) return call;
  const { prompt, messages, ...rest } = call;
  const history: ModelMessage[] =
    typeof prompt === 'string'
      ? [{ role: 'user', content: prompt }]
      : [...(((Array.isArray(prompt) ? prompt : messages) as ModelMessage[] | undefined) ?? [])];
  const said = previousText(previous);
  if (said) history.push({ role: 'assistant', content: said });
  const text = reask ? reask(feedback) : defaultReask(feedback, call.output !== undefined);
  history.push({ role: 'user', content: text });
  return { ...rest, messages: history } as unknown as O;
}

function defaultReask(feedback: ValidationError, structured: boolean): string {
  const then = structured
    ? 'Reply with the corrected JSON only.'
    : 'Reply with a corrected answer.';
  return `Your last answer was rejected:\n${feedback.message}\n${then}`;
}

function previousText(previous: unknown): string | undefined {
  if (previous === undefined) return undefined;
  if (isUnusableOutput(previous)) return previous.text || undefined;
  let text: string | undefined;
  try {
    text = typeof previous === 'string' ? previous : JSON.stringify(previous);
  } catch {
    text = undefined;
  }
  return text ? text.slice(0, MAX_PREVIOUS) : undefined;
}
