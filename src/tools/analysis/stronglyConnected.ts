/**
 * The strongly connected components of the graph over `vertices` (Tarjan's algorithm, iterative,
 * linear in vertices and edges), each as a list of vertices; edges to vertices outside are ignored.
 * @example stronglyConnected([0, 1, 2], [[1], [0], []]) // → [[1, 0], [2]] (in completion order)
 */
export function stronglyConnected(
  vertices: readonly number[],
  successors: readonly (readonly number[])[],
  within: (v: number) => boolean = () => true,
): number[][] {
  const index = new Map<number, number>();
  const low = new Map<number, number>();
  const onStack = new Set<number>();
  const stack: number[] = [];
  const components: number[][] = [];
  let counter = 0;
  for (const root of vertices) {
    if (index.has(root)) continue;
    const frames: Array<{ v: number; next: number }> = [{ v: root, next: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1] as { v: number; next: number };
      const out = successors[frame.v] ?? [];
      if (frame.next < out.length) {
        const w = out[frame.next++] as number;
        if (!within(w)) continue;
        if (!index.has(w)) {
          index.set(w, counter);
          low.set(w, counter++);
          stack.push(w);
          onStack.add(w);
          frames.push({ v: w, next: 0 });
        } else if (onStack.has(w)) {
          low.set(frame.v, Math.min(low.get(frame.v) as number, index.get(w) as number));
        }
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent)
        low.set(parent.v, Math.min(low.get(parent.v) as number, low.get(frame.v) as number));
      if (low.get(frame.v) === index.get(frame.v)) {
        const component: number[] = [];
        for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
          onStack.delete(w);
          component.push(w);
          if (w === frame.v) break;
        }
        components.push(component);
      }
    }
  }
  return components;
}
