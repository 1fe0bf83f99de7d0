import type { AnyActorRef } from 'xstate';

/** Sends `loop.abort` to the actor when `signal` aborts (now, if it already has); returns the undo. */
export function abortOnSignal(actor: AnyActorRef, signal: AbortSignal | undefined): () => void {
  if (!signal) return () => {};
  const abort = () => actor.send({ type: 'loop.abort', reason: abortReason(signal) });
  if (signal.aborted) abort();
  else signal.addEventListener('abort', abort, { once: true });
  return () => signal.removeEventListener('abort', abort);
}

function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (typeof reason === 'string') return reason;
  if (reason instanceof Error) return reason.message || reason.name;
  return 'the caller aborted the run';
}
