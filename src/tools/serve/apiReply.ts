import type { z } from 'zod';
import { isCheckpointError } from '../../stores/kit/CheckpointError.js';
import type { ApiError, ApiErrorCode } from './apiSchemas.js';

/** An answer of the run API: an HTTP status and the JSON body, a success or an `ApiError`. */
export type ApiReply<T> =
  | { ok: true; status: number; body: T }
  | { ok: false; status: number; body: ApiError };

/** A refusal with a stable code and a message for people. */
export function refuse(
  status: number,
  code: ApiErrorCode,
  message: string,
  issues?: { path: string; message: string }[],
): ApiReply<never> {
  return { ok: false, status, body: { error: { code, message, ...(issues ? { issues } : {}) } } };
}

/** A 400 listing what is wrong with a query or a body, field by field. */
export function badRequest(what: string, error: z.ZodError): ApiReply<never> {
  const issues = error.issues.slice(0, 20).map((issue) => ({
    path: issue.path.map(String).join('.') || '(root)',
    message: issue.message,
  }));
  const first = issues[0];
  return refuse(400, 'bad_request', `${what}: ${first?.path}: ${first?.message}`, issues);
}

const STATUS_OF: Record<string, [number, ApiErrorCode]> = {
  not_found: [404, 'not_found'],
  conflict: [409, 'conflict'],
  not_waiting: [409, 'not_waiting'],
  invalid_answer: [422, 'invalid_answer'],
  corrupt: [500, 'unreadable'],
  unknown_version: [500, 'unreadable'],
  other_machine: [500, 'unreadable'],
};

/** Maps what `resumeLoop`/`resumePipeline` rejected with to a reply; `CheckpointError`s by code. */
export function replyForError(error: unknown): ApiReply<never> {
  if (isCheckpointError(error)) {
    const [status, code] = Object.hasOwn(STATUS_OF, error.code)
      ? (STATUS_OF[error.code] as [number, ApiErrorCode])
      : [500, 'internal' as const];
    return refuse(status, code, error.message);
  }
  if (error instanceof Error && error.name === 'LoopConfigError') {
    return refuse(400, 'bad_request', error.message);
  }
  return refuse(500, 'internal', error instanceof Error ? error.message : String(error));
}
