import { runLoop } from 'loopchart';
import { toWireEvent, type WireEvent } from 'loopchart/viewer';
import type { InspectionEvent } from 'xstate';

/**
 * Records the wire events (`@statelyai/inspect` format) of one short real loop run: a correctable
 * error with no retries left, then the fallback. Replaying them with fresh ids gives as many runs as
 * a load test needs, at the rate it chooses.
 */
export async function recordRun(): Promise<WireEvent[]> {
  const events: WireEvent[] = [];
  await runLoop(
    {
      attempt: (ctx) => ({ draft: `draft ${ctx.attempt}`, notes: 'x'.repeat(200) }),
      validate: (_, ctx) => ({
        valid: false,
        error: { severity: 'correctable', message: `total is wrong in attempt ${ctx.attempt}` },
      }),
      fallback: () => ({ draft: 'safe answer' }),
      maxRetries: 0,
      retryDelayMs: 0,
    },
    { task: 'summarise' },
    {
      inspect: {
        next: (event: InspectionEvent) => {
          const wire = toWireEvent(event);
          if (wire) events.push(JSON.parse(JSON.stringify(wire)));
        },
      },
    },
  );
  return events;
}

function isRootDone(event: WireEvent): boolean {
  const snapshot = event.snapshot as { status?: unknown } | undefined;
  return event.sessionId === event.rootId && snapshot?.status === 'done';
}

const ID_FIELDS = ['sessionId', 'rootId', 'parentId', 'sourceId'] as const;

/**
 * The recorded events as run number `run`: every actor id prefixed, so each run is a new one.
 * `unfinished` leaves out the root's final snapshot, so the run stays active (a long run).
 */
export function replayAs(recorded: WireEvent[], run: number, unfinished = false): string[] {
  const events = unfinished ? recorded.filter((event) => !isRootDone(event)) : recorded;
  return events.map((event) => {
    const copy: Record<string, unknown> = { ...event };
    for (const field of ID_FIELDS) {
      if (typeof copy[field] === 'string') copy[field] = `r${run}-${copy[field]}`;
    }
    return JSON.stringify(copy);
  });
}

/** Messages the viewer must drop: not JSON, not an inspection event, or ids it cannot trust. */
export const MALFORMED_MESSAGES: readonly string[] = [
  'not json',
  '[]',
  'null',
  '{"type":"@xstate.snapshot"}',
  '{"type":"@xstate.bogus","sessionId":"junk:1"}',
  '{"type":"@xstate.event","sessionId":"junk:2","event":5}',
  '{"type":"@xstate.snapshot","sessionId":"junk:3","snapshot":"not a record"}',
  `{"type":"@xstate.actor","sessionId":"junk:${'j'.repeat(300)}"}`,
  '{"__proto__":{"type":"@xstate.actor"},"sessionId":"junk:4"}',
  '{"type":"@xstate.actor","sessionId":{"junk":5}}',
];

/** Valid inspection events whose payloads carry own `__proto__`, `constructor` and `prototype` keys. */
export const HOSTILE_FRAMES: readonly string[] = [
  '{"__proto__":{"polluted":"yes"},"type":"@xstate.event","sessionId":"p:1","event":{"type":"go","__proto__":{"polluted":"yes"}}}',
  '{"type":"@xstate.snapshot","sessionId":"p:1","rootId":"p:1","event":{"type":"go"},"snapshot":{"__proto__":{"polluted":"yes","status":"done"},"status":"active","value":{"__proto__":"x"},"context":{"__proto__":{"polluted":"yes"},"candidate":{"__proto__":{"polluted":"yes"}},"trace":[{"__proto__":{"polluted":"yes"},"seq":1}],"settings":{"constructor":{"prototype":{"polluted":"yes"}}}},"output":{"__proto__":{"polluted":"yes","status":"proceed"}}}}',
  `{"type":"@xstate.actor","sessionId":"p:2","rootId":"p:2","name":"evil","definition":${JSON.stringify(
    '{"id":"evil","__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"initial":"a","states":{"__proto__":{"polluted":"yes"},"a":{"on":{"__proto__":"a","go":"b"}},"b":{"type":"final"}}}',
  )}}`,
  '{"type":"@xstate.actor","sessionId":"p:3","constructor":{"prototype":{"polluted":"yes"}},"prototype":{"polluted":"yes"}}',
];
