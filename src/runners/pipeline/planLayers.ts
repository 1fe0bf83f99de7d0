/** A node of the dependency graph: a stage id and the ids it depends on. */
export interface PlanNode {
  id: string;
  dependsOn: readonly string[];
}

/**
 * Kahn's algorithm in waves: layer 1 holds the stages with no dependencies, layer n the stages whose
 * dependencies all sit in earlier layers. Each layer is sorted by id, so the declaration order of
 * the plan never matters. Stages on or behind a cycle are left out and returned in `blocked`.
 * @example planLayers([{ id: 'b', dependsOn: ['a'] }, { id: 'a', dependsOn: [] }]).layers // [['a'], ['b']]
 */
export function planLayers(nodes: readonly PlanNode[]): { layers: string[][]; blocked: string[] } {
  const waiting = new Map(nodes.map((node) => [node.id, new Set(node.dependsOn)]));
  const layers: string[][] = [];
  let ready = readyIn(waiting);
  while (ready.length > 0) {
    layers.push(ready);
    for (const id of ready) waiting.delete(id);
    for (const deps of waiting.values()) for (const id of ready) deps.delete(id);
    ready = readyIn(waiting);
  }
  return { layers, blocked: [...waiting.keys()].sort() };
}

function readyIn(waiting: Map<string, Set<string>>): string[] {
  return [...waiting]
    .filter(([, deps]) => deps.size === 0)
    .map(([id]) => id)
    .sort();
}

/**
 * The cycles among `nodes` found by depth-first search (one per back edge), each in running order
 * (`a → b` where b depends on a), starting at its smallest id and ending where it started.
 * @example findCycles([{ id: 'a', dependsOn: ['b'] }, { id: 'b', dependsOn: ['a'] }]) // [['a', 'b', 'a']]
 */
export function findCycles(nodes: readonly PlanNode[]): string[][] {
  const deps = new Map(nodes.map((node) => [node.id, [...node.dependsOn].sort()]));
  const done = new Set<string>();
  const cycles: string[][] = [];
  const visit = (id: string, path: string[]): void => {
    const at = path.indexOf(id);
    if (at >= 0) {
      cycles.push([...path.slice(at), id]);
      return;
    }
    if (done.has(id) || !deps.has(id)) return;
    for (const next of deps.get(id) ?? []) visit(next, [...path, id]);
    done.add(id);
  };
  for (const id of [...deps.keys()].sort()) visit(id, []);
  return cycles.map(inRunningOrder);
}

function inRunningOrder(cycle: string[]): string[] {
  const ring = cycle.slice(1).reverse();
  const start = ring.indexOf([...ring].sort()[0] as string);
  const rotated = [...ring.slice(start), ...ring.slice(0, start)];
  return [...rotated, rotated[0] as string];
}
