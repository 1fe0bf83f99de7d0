import type { AnyActorRef, InspectionEvent } from 'xstate';
import { toJsonSafe } from './toJsonSafe.js';

/** The JSON an inspection event travels as: the format `@statelyai/inspect` sends. */
export type WireEvent = Record<string, unknown> & { type: string; sessionId: string };

/**
 * Converts an XState inspection event to the wire format of `@statelyai/inspect` (so one viewer
 * reads both): `@xstate.actor` with the machine config as a JSON `definition`, `@xstate.event`,
 * `@xstate.snapshot`. Other inspection events (microsteps, actions) give `undefined`.
 * @example socket.send(JSON.stringify(toWireEvent(inspectionEvent)));
 */
export function toWireEvent(event: InspectionEvent): WireEvent | undefined {
  const actor = event.actorRef as AnyActorRef & { _parent?: AnyActorRef; logic?: unknown };
  const common = {
    sessionId: actor.sessionId,
    rootId: event.rootId,
    createdAt: String(Date.now()),
    id: null,
    _version: 'loopchart',
  };
  switch (event.type) {
    case '@xstate.actor': {
      const config: unknown = (actor.logic as { config?: unknown } | undefined)?.config;
      const configId = typeof config === 'object' && config !== null ? idOf(config) : undefined;
      const name = actor.id === actor.sessionId && configId ? configId : actor.id;
      const definition = typeof config === 'object' && config !== null ? config : { id: name };
      return {
        type: event.type,
        ...common,
        name,
        parentId: actor._parent?.sessionId,
        definition: JSON.stringify(toJsonSafe(definition)),
      };
    }
    case '@xstate.event':
      return {
        type: event.type,
        ...common,
        event: toJsonSafe(event.event),
        sourceId: event.sourceRef?.sessionId,
      };
    case '@xstate.snapshot':
      return {
        type: event.type,
        ...common,
        event: toJsonSafe(event.event),
        snapshot: toJsonSafe(event.snapshot),
      };
    default:
      return undefined;
  }
}

function idOf(config: object): string | undefined {
  const { id } = config as { id?: unknown };
  return typeof id === 'string' ? id : undefined;
}
