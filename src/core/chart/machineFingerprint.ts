import type { AnyStateMachine } from 'xstate';
import { reproducibilityKey } from '../vocabulary/hashing.js';

interface NodeLike {
  key: string;
  type: string;
  tags: readonly string[];
  entry: readonly unknown[];
  exit: readonly unknown[];
  invoke: readonly { id: string; src: unknown }[];
  transitions: Map<string, readonly TransitionLike[]>;
  always?: readonly TransitionLike[];
  states: Record<string, NodeLike>;
}

interface TransitionLike {
  target?: readonly { id: string }[];
  guard?: unknown;
  actions: readonly unknown[];
  reenter?: boolean;
}

/**
 * A hash of a machine's definition (states, transitions with their guards and targets, invokes,
 * actions by name, `always` included) and of the settings its context carries. A checkpoint stores
 * it; resuming with a machine whose fingerprint differs is refused, because a restored snapshot
 * keeps the old settings and names states the new chart may not have. Step implementations are not
 * hashed: fixing a step's code does not orphan its runs.
 * @example machineFingerprint(createLoopMachine(config), resolveConfig(config)); // '9f86d0…'
 */
export function machineFingerprint(machine: AnyStateMachine, settings: unknown): string {
  return reproducibilityKey({
    id: machine.id,
    root: describeNode(machine.root as unknown as NodeLike),
    settings,
  });
}

function describeNode(node: NodeLike): unknown {
  return {
    key: node.key,
    type: node.type,
    tags: [...node.tags].sort(),
    entry: node.entry.map(describeAction),
    exit: node.exit.map(describeAction),
    invoke: node.invoke.map(({ id, src }) => ({
      id,
      src: typeof src === 'string' ? src : 'inline',
    })),
    on: Object.fromEntries(
      [...node.transitions].map(([event, list]) => [event, list.map(describeTransition)]),
    ),
    always: (node.always ?? []).map(describeTransition),
    states: Object.fromEntries(
      Object.entries(node.states).map(([key, child]) => [key, describeNode(child)]),
    ),
  };
}

function describeTransition(transition: TransitionLike): unknown {
  return {
    target: (transition.target ?? []).map((node) => node.id),
    guard: describeGuard(transition.guard),
    actions: transition.actions.map(describeAction),
    reenter: transition.reenter ?? false,
  };
}

function describeGuard(guard: unknown): unknown {
  if (typeof guard === 'function') {
    const parts = (guard as { guards?: unknown }).guards;
    const inner = Array.isArray(parts) ? parts : parts === undefined ? undefined : [parts];
    return inner ? { [guard.name]: inner.map(describeGuard) } : 'inline';
  }
  return describeAction(guard);
}

function describeAction(action: unknown): unknown {
  if (typeof action === 'string' || action === undefined) return action ?? null;
  if (typeof action === 'function') return (action as { type?: string }).type ?? 'inline';
  if (typeof action === 'object' && action !== null) {
    const { type, params } = action as { type?: unknown; params?: unknown };
    return { type, params: typeof params === 'function' ? 'dynamic' : params };
  }
  return String(action);
}
