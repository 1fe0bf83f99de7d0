import type { AnyStateMachine } from 'xstate';
import { describeGuard } from './describeGuard.js';

/** The tag that marks a state as waiting for a person (review, clarification). */
export const WAITS_FOR_HUMAN = 'waitsForHuman';

export type GraphNodeType = 'atomic' | 'compound' | 'parallel' | 'final' | 'history';
export type GraphEdgeKind = 'always' | 'after' | 'done' | 'error' | 'event';

/** One state node of a machine, the root included. */
export interface GraphNode {
  /** The full state node id, e.g. `'loop.attempting'`. */
  id: string;
  key: string;
  path: string[];
  parent?: string;
  type: GraphNodeType;
  tags: string[];
  /** The `src` names of the actors the state invokes. */
  invokes: string[];
  /**
   * Tagged `waitsForHuman`, or an atomic state that only external events can leave (no `always`,
   * `after`, invoke or entry `raise` on it or its ancestors): nothing inside the machine moves it on.
   * A display hint (the viewer and diagrams mark such states); the termination check decides per
   * event instead (`analyzeCycles`).
   */
  waitsForHuman: boolean;
  /** The id of the initial child of a compound state. */
  initial?: string;
}

/** One transition, split per target. */
export interface GraphEdge {
  id: string;
  source: string;
  /** The target node id; the source itself for a targetless transition. */
  target: string;
  kind: GraphEdgeKind;
  /** The event type; `''` for `always`. */
  event: string;
  /** The guard's name, or a rendering like `and(hasRetriesLeft, not(withinCeiling))`. */
  guard?: string;
  /** The guard is a budget guard (or requires one), so a cycle through this edge is bounded. */
  budget: boolean;
  actions: string[];
  /** The index among the source's transitions for this event (the order guards are tried in). */
  order: number;
  reenter?: boolean;
  /** The transition has no target: it runs actions and leaves the active states as they are. */
  targetless?: boolean;
}

/** A machine's states and transitions, `always` included. */
export interface MachineGraph {
  id: string;
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export interface StateNodeLike {
  id: string;
  key: string;
  path: string[];
  type: GraphNodeType;
  tags: string[];
  parent?: StateNodeLike;
  states: Record<string, StateNodeLike>;
  config: { initial?: unknown; invoke?: unknown };
  initial?: { target: readonly StateNodeLike[] };
  invoke: ReadonlyArray<{ src: string; id?: string }>;
  transitions: Map<string, readonly TransitionLike[]>;
  always?: readonly TransitionLike[];
  entry: readonly unknown[];
  exit?: readonly unknown[];
}

export interface TransitionLike {
  target?: readonly StateNodeLike[];
  guard?: unknown;
  actions: readonly unknown[];
  reenter?: boolean;
}

/**
 * Reads a machine's states and transitions from `machine.root` (unlike `toJSON()`, this keeps
 * `always`), with each guard named or rendered and budget guards flagged.
 * @example const { nodes, edges } = machineGraph(createLoopMachine(config));
 *          edges.filter((edge) => edge.source === 'loop.routing'); // the decision table, in order
 */
export function machineGraph(machine: AnyStateMachine): MachineGraph {
  return readMachine(machine).graph;
}

/** `machineGraph`, with the state nodes and transition objects each node and edge was read from. */
export function readMachine(machine: AnyStateMachine): {
  graph: MachineGraph;
  stateNodes: Map<string, StateNodeLike>;
  transitionOf: Map<GraphEdge, TransitionLike>;
} {
  const guards = (machine.implementations?.guards ?? {}) as Record<string, unknown>;
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const stateNodes = new Map<string, StateNodeLike>();
  const transitionOf = new Map<GraphEdge, TransitionLike>();
  forEachTransition(
    machine,
    (node) => {
      nodes.push(toNode(node));
      stateNodes.set(node.id, node);
    },
    (node, event, transition, order) => {
      for (const edge of toEdges(node, event, transition, order, guards)) {
        edges.push(edge);
        transitionOf.set(edge, transition);
      }
    },
  );
  return { graph: { id: machine.id, nodes, edges }, stateNodes, transitionOf };
}

/**
 * Visits every state node of a machine, depth first, and each of its transitions in the order
 * `transitionId` numbers them: `always` first (event ''), then each event's list.
 */
export function forEachTransition(
  machine: AnyStateMachine,
  onNode: (node: StateNodeLike) => void,
  onTransition: (
    node: StateNodeLike,
    event: string,
    transition: TransitionLike,
    order: number,
  ) => void,
): void {
  const visit = (node: StateNodeLike) => {
    onNode(node);
    node.always?.forEach((transition, order) => {
      onTransition(node, '', transition, order);
    });
    for (const [event, transitions] of node.transitions) {
      transitions.forEach((transition, order) => {
        onTransition(node, event, transition, order);
      });
    }
    for (const child of Object.values(node.states)) visit(child);
  };
  visit(machine.root as unknown as StateNodeLike);
}

function toNode(node: StateNodeLike): GraphNode {
  const initial = node.type === 'compound' ? node.initial?.target[0]?.id : undefined;
  return {
    id: node.id,
    key: node.key,
    path: [...node.path],
    ...(node.parent ? { parent: node.parent.id } : {}),
    type: node.type,
    tags: [...node.tags],
    invokes: node.invoke.map((invoke) => invoke.src),
    waitsForHuman: node.tags.includes(WAITS_FOR_HUMAN) || onlyExternalExits(node),
    ...(initial ? { initial } : {}),
  };
}

function onlyExternalExits(node: StateNodeLike): boolean {
  if (node.type !== 'atomic') return false;
  let external = false;
  for (let at: StateNodeLike | undefined = node; at; at = at.parent) {
    if (at.always?.length || at.invoke.length || at.entry.some(raisesEvent)) return false;
    for (const event of at.transitions.keys()) {
      if (kindOf(event) !== 'event') return false;
      external = true;
    }
  }
  return external;
}

const raisesEvent = (action: unknown) =>
  typeof action === 'function' && (action as { type?: unknown }).type === 'xstate.raise';

function toEdges(
  node: StateNodeLike,
  event: string,
  transition: TransitionLike,
  order: number,
  guards: Record<string, unknown>,
): GraphEdge[] {
  const kind = kindOf(event);
  const guard =
    transition.guard === undefined ? undefined : describeGuard(transition.guard, guards);
  const targets = transition.target?.length ? transition.target.map((t) => t.id) : [node.id];
  return targets.map((target, index) => ({
    id: `${transitionId(node.id, event, order)}${targets.length > 1 ? `:${index}` : ''}`,
    source: node.id,
    target,
    kind,
    event,
    ...(guard ? { guard: guard.text } : {}),
    budget: guard?.budget ?? false,
    actions: transition.actions.map(actionName),
    order,
    ...(transition.reenter ? { reenter: true } : {}),
    ...(transition.target?.length ? {} : { targetless: true }),
  }));
}

/**
 * The id of a transition: `source:event:order` (`always` for an eventless one). Its edges carry
 * this id, with `:index` appended per target when the transition has several targets.
 * @example transitionId('loop.routing', '', 7) // 'loop.routing:always:7'
 */
export function transitionId(source: string, event: string, order: number): string {
  return `${source}:${event || 'always'}:${order}`;
}

/** The kind of transition an event descriptor belongs to. */
export function kindOf(event: string): GraphEdgeKind {
  if (event === '') return 'always';
  if (event.startsWith('xstate.after.')) return 'after';
  if (event.startsWith('xstate.done.')) return 'done';
  if (event.startsWith('xstate.error.')) return 'error';
  return 'event';
}

function actionName(action: unknown): string {
  if (typeof action === 'string') return action;
  if (typeof action === 'function') {
    const { type } = action as { type?: unknown };
    return typeof type === 'string' ? type : action.name || 'inline action';
  }
  if (typeof action === 'object' && action !== null && 'type' in action) {
    return String((action as { type: unknown }).type);
  }
  return 'inline action';
}
