/**
 * Every elementary cycle of a directed graph over vertices `0..n-1` (Johnson's algorithm), each
 * starting at its smallest vertex, at most `limit` of them.
 * @example elementaryCycles(3, [[1], [2], [0]], 10) // → [[0, 1, 2]]
 */
export function elementaryCycles(
  n: number,
  successors: readonly (readonly number[])[],
  limit: number,
): number[][] {
  const cycles: number[][] = [];
  for (let start = 0; start < n && cycles.length < limit; start++) {
    const component = componentOf(start, n, successors);
    if (component === undefined) continue;
    const blocked = new Set<number>();
    const blockedBy = new Map<number, Set<number>>();
    const stack: number[] = [];
    const unblock = (v: number) => {
      blocked.delete(v);
      for (const w of blockedBy.get(v) ?? []) if (blocked.has(w)) unblock(w);
      blockedBy.delete(v);
    };
    const circuit = (v: number): boolean => {
      let found = false;
      stack.push(v);
      blocked.add(v);
      for (const w of successors[v] ?? []) {
        if (!component.has(w) || cycles.length >= limit) continue;
        if (w === start) {
          cycles.push([...stack]);
          found = true;
        } else if (!blocked.has(w) && circuit(w)) {
          found = true;
        }
      }
      if (found) unblock(v);
      else {
        for (const w of successors[v] ?? []) {
          if (!component.has(w)) continue;
          const set = blockedBy.get(w) ?? new Set<number>();
          set.add(v);
          blockedBy.set(w, set);
        }
      }
      stack.pop();
      return found;
    };
    circuit(start);
  }
  return cycles;
}

/** The strongly connected component of `start` among vertices ≥ `start`, if it holds a cycle. */
function componentOf(
  start: number,
  n: number,
  successors: readonly (readonly number[])[],
): Set<number> | undefined {
  const within = (v: number) => v >= start && v < n;
  const reach = (from: number, next: (v: number) => readonly number[]) => {
    const seen = new Set([from]);
    const queue = [from];
    for (let v = queue.pop(); v !== undefined; v = queue.pop()) {
      for (const w of next(v)) {
        if (within(w) && !seen.has(w)) {
          seen.add(w);
          queue.push(w);
        }
      }
    }
    return seen;
  };
  const predecessors: number[][] = Array.from({ length: n }, () => []);
  successors.forEach((targets, v) => {
    for (const w of targets) predecessors[w]?.push(v);
  });
  const forward = reach(start, (v) => successors[v] ?? []);
  const backward = reach(start, (v) => predecessors[v] ?? []);
  const component = new Set([...forward].filter((v) => backward.has(v)));
  const selfLoop = successors[start]?.includes(start) ?? false;
  return component.size > 1 || selfLoop ? component : undefined;
}
