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
      const least = members.reduce((a, b) => Math.min(a, b));
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
 * Johnson's circuit search, iterative so a long cycle cannot overflow the stack: hands each
 * elementary cycle through `start` inside `component` to `visit`, which returns false to stop;
 * returns false when stopped.
 */
function circuitsFrom(
  start: number,
  component: ReadonlySet<number>,
  successors: readonly (readonly number[])[],
  visit: (cycle: number[]) => boolean,
): boolean {
  let going = true;
  const blocked = new Set<number>([start]);
  const blockedBy = new Map<number, Set<number>>();
  const path: number[] = [start];
  const frames: Array<{ v: number; next: number; closed: boolean }> = [
    { v: start, next: 0, closed: false },
  ];
  const unblock = (u: number) => {
    const todo = [u];
    for (let v = todo.pop(); v !== undefined; v = todo.pop()) {
      blocked.delete(v);
      const waiting = blockedBy.get(v);
      if (!waiting) continue;
      blockedBy.delete(v);
      for (const w of waiting) if (blocked.has(w)) todo.push(w);
    }
  };
  while (frames.length > 0) {
    const frame = frames[frames.length - 1] as { v: number; next: number; closed: boolean };
    const out = successors[frame.v] ?? [];
    if (going && frame.next < out.length) {
      const w = out[frame.next++] as number;
      if (!component.has(w)) continue;
      if (w === start) {
        frame.closed = true;
        going = visit([...path]);
      } else if (!blocked.has(w)) {
        path.push(w);
        blocked.add(w);
        frames.push({ v: w, next: 0, closed: false });
      }
      continue;
    }
    if (frame.closed) unblock(frame.v);
    else {
      for (const w of out) {
        if (!component.has(w)) continue;
        const set = blockedBy.get(w) ?? new Set<number>();
        set.add(frame.v);
        blockedBy.set(w, set);
      }
    }
    frames.pop();
    path.pop();
    const parent = frames[frames.length - 1];
    if (parent && frame.closed) parent.closed = true;
  }
  return going;
}
