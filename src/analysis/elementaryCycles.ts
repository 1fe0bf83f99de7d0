import { stronglyConnected } from './stronglyConnected.js';

/**
 * Every elementary cycle of a directed graph over vertices `0..n-1` (Johnson's algorithm), each
 * starting at its smallest vertex, at most `limit` of them. `accept` filters the cycles that count
 * towards `limit`; the search gives up after examining `20 × limit` cycles in all. Components are
 * found once and split again only where a cycle was searched, so a machine with few loops costs
 * linear time.
 * @example elementaryCycles(3, [[1], [2], [0]], 10) // → [[0, 1, 2]]
 */
export function elementaryCycles(
  n: number,
  successors: readonly (readonly number[])[],
  limit: number,
  accept: (cycle: readonly number[]) => boolean = () => true,
): number[][] {
  const cycles: number[][] = [];
  let budget = limit * 20;
  const visit = (cycle: number[]) => {
    budget--;
    if (accept(cycle)) cycles.push(cycle);
    return budget > 0 && cycles.length < limit;
  };
  const pending: Array<{ least: number; members: number[] }> = [];
  const queue = (components: number[][]) => {
    for (const members of components) {
      const least = Math.min(...members);
      const loops = members.length > 1 || (successors[least]?.includes(least) ?? false);
      if (loops) pending.push({ least, members });
    }
    pending.sort((a, b) => b.least - a.least);
  };
  queue(
    stronglyConnected(
      Array.from({ length: n }, (_, v) => v),
      successors,
    ),
  );
  for (let next = pending.pop(); next; next = pending.pop()) {
    const component = new Set(next.members);
    if (!circuitsFrom(next.least, component, successors, visit)) break;
    component.delete(next.least);
    queue(stronglyConnected([...component], successors, (v) => component.has(v)));
  }
  return cycles;
}

/**
 * Johnson's circuit search: hands each elementary cycle through `start` inside `component` to
 * `visit`, which returns false to stop; returns false when stopped.
 */
function circuitsFrom(
  start: number,
  component: ReadonlySet<number>,
  successors: readonly (readonly number[])[],
  visit: (cycle: number[]) => boolean,
): boolean {
  let going = true;
  const blocked = new Set<number>();
  const blockedBy = new Map<number, Set<number>>();
  const stack: number[] = [];
  const unblock = (v: number) => {
    blocked.delete(v);
    for (const w of blockedBy.get(v) ?? []) if (blocked.has(w)) unblock(w);
    blockedBy.delete(v);
  };
  const circuit = (v: number): boolean => {
    let closed = false;
    stack.push(v);
    blocked.add(v);
    for (const w of successors[v] ?? []) {
      if (!going) break;
      if (!component.has(w)) continue;
      if (w === start) {
        closed = true;
        going = visit([...stack]);
      } else if (!blocked.has(w) && circuit(w)) {
        closed = true;
      }
    }
    if (closed) unblock(v);
    else {
      for (const w of successors[v] ?? []) {
        if (!component.has(w)) continue;
        const set = blockedBy.get(w) ?? new Set<number>();
        set.add(v);
        blockedBy.set(w, set);
      }
    }
    stack.pop();
    return closed;
  };
  circuit(start);
  return going;
}
