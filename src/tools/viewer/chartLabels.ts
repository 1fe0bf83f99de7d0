import { edgeLabel } from '../diagram/edgeLabel.js';
import type { MachineJsonEdge } from '../diagram/toMachineJson.js';

/** Widths of one monospace character of an edge label (12 px) and its line height. */
const CHAR = 7.3;
const LINE = 14;
/** Room kept on a label's last line for the count the page adds to a taken edge (` ×99`). */
export const COUNT_ROOM = ' ×99';
/** A label longer than this (count room included) goes on two lines: the event, then the guard. */
const MAX_LINE = 24;

/**
 * An edge's label in the chart: the diagram's label (`↻ done.refine`, `[hasRetriesLeft]`), and
 * for an unguarded eventless transition, which has neither, what it is: `[else]` after guarded
 * eventless transitions of the same state, `always` alone.
 * @example chartEdgeLabel(routingToFallingBack, graph.edges) // '[else]'
 */
export function chartEdgeLabel(edge: MachineJsonEdge, edges: readonly MachineJsonEdge[]): string {
  let extra = '';
  // Only an eventless transition needs words of its own: any other is named by its event.
  if (edge.guard === undefined && edge.kind === 'always') {
    const guardedSibling = edges.some(
      (other) =>
        other.source === edge.source &&
        other.event === edge.event &&
        other.kind === edge.kind &&
        other.guard !== undefined,
    );
    extra = guardedSibling ? '[else]' : 'always';
  }
  return [edgeLabel(edge), extra].filter(Boolean).join(' ');
}

/**
 * A label's lines: one, or for a long one the event and then the guard.
 * @example labelLines('↻ done.retryDelay [failedInAttempt]') // ['↻ done.retryDelay', '[failedInAttempt]']
 */
export function labelLines(label: string): string[] {
  if (label.length + COUNT_ROOM.length <= MAX_LINE) return [label];
  const split = label.indexOf(' [');
  return split > 0 ? [label.slice(0, split), label.slice(split + 1)] : [label];
}

/**
 * The box a label is drawn in (its text, with room for the count on the last line).
 * @example labelSize(['done.attempt']) // { width: 125, height: 18 }
 */
export function labelSize(lines: readonly string[]): { width: number; height: number } {
  const widest = Math.max(
    ...lines.map((line, i) => line.length + (i === lines.length - 1 ? COUNT_ROOM.length : 0)),
  );
  return { width: Math.ceil(widest * CHAR) + 8, height: lines.length * LINE + 4 };
}
