import type { MachineJsonEdge } from './toMachineJson.js';

/** The mark that tells a back-edge (an edge that closes a cycle) in every drawing. */
export const BACK_EDGE_MARK = '↻';

/**
 * How an edge reads in a drawing: the event shortened (`done.attempt`, `after 1000`, `loop.abort`;
 * nothing for `always`), the guard in brackets, and `↻` first on a back-edge.
 * @example edgeLabel(edge) // '↻ done.refine', '[hasRetriesLeft]', 'done.attempt [isEmptyResult]'
 */
export function edgeLabel(edge: MachineJsonEdge): string {
  const parts = [
    edge.backEdge ? BACK_EDGE_MARK : '',
    shortEvent(edge),
    edge.guard ? `[${edge.guard}]` : '',
  ];
  return parts.filter(Boolean).join(' ');
}

function shortEvent(edge: Pick<MachineJsonEdge, 'kind' | 'event' | 'source'>): string {
  const { kind, event, source } = edge;
  if (kind === 'always') return '';
  if (kind === 'after') {
    const delay = event.slice('xstate.after.'.length);
    return `after ${delay.endsWith(`.${source}`) ? delay.slice(0, -source.length - 1) : delay}`;
  }
  if (event.startsWith('xstate.done.actor.')) return `done.${event.slice(18)}`;
  if (event.startsWith('xstate.error.actor.')) return `error.${event.slice(19)}`;
  if (event.startsWith('xstate.done.state.')) return 'done';
  return event;
}
