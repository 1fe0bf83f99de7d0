import type { AnyActorRef } from 'xstate';

/** Sends `loop.abort` to the actor when `signal` aborts (now, if it already has); returns the undo. */
export function abortOnSignal(actor: AnyActorRef, signal: AbortSignal | undefined): () => void {
  if (!signal) return keepGoing;
  const abort = () => {
    // a run that already ended (its last save still under way) has nothing left to abort
    if (actor.getSnapshot().status !== 'active') return;
    actor.send({ type: 'loop.abort', reason: abortReason(signal) });
  };
  if (signal.aborted) abort();
  else signal.addEventListener('abort', abort, { once: true });
  return () => signal.removeEventListener('abort', abort);
}

const keepGoing = () => {};

/** The caller's abort reason as text; a reason whose properties throw cannot stop the abort. */
export function abortReason(signal: AbortSignal): string {
  const fallback = 'the caller aborted the run';
  try {
    const reason: unknown = signal.reason;
    if (typeof reason === 'string') return reason;
    if (reason instanceof Error) return String(reason.message || reason.name || fallback);
  } catch {
    // a hostile reason (a Proxy, a throwing getter) still aborts, with the generic reason
  }
  return fallback;
}
