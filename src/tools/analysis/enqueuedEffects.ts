import { eventsOf, mergeSent, type SentEvents, sentByCalls } from './sentEvents.js';
import { balanced, callsOf, splitTop } from './sourceText.js';

/** What an `enqueueActions` body does, read call by call from its source. */
export interface EnqueuedEffects {
  /** Events it sends the machine itself (`enqueue.raise`, `sendTo(self)`, `self.send`). */
  self: SentEvents;
  /** Events it sends the parent (`enqueue.sendParent`, `sendTo` the parent). */
  parent: SentEvents;
  /** The named actions it enqueues (`enqueue('name')`, `enqueue({ type: 'name' })`). */
  named: string[];
  assigns: boolean;
  /** The context keys its `assign` calls write; `'*'` when one cannot be read. */
  writes: Set<string>;
  /** Each written key's assigned expressions, as text. */
  assignedText: Map<string, string[]>;
  spawns: string[];
}

const BUILDERS =
  /^(?:raise|sendTo|sendParent|assign|spawnChild|log|emit|cancel|stopChild|stop|forwardTo)\s*\(/;

/**
 * Reads an `enqueueActions` body: each `raise`/`sendTo`/`sendParent`/`assign` call (as
 * `enqueue.x(…)` or `enqueue(x(…))`) and each named action enqueued. Anything it cannot see
 * through — `enqueue(someAction)`, `enqueue` handed to a helper — may send any event and write
 * any key.
 * @example enqueuedEffects("({ enqueue }) => { enqueue.raise({ type: 'A' }); enqueue('save') }")
 *   // self: { types: Set { 'A' } }, named: ['save']
 */
export function enqueuedEffects(body: string): EnqueuedEffects {
  const out: EnqueuedEffects = {
    self: sentByCalls(body, /\braise\s*/),
    parent: sentByCalls(body, /\bsendParent\s*/),
    named: [],
    assigns: false,
    writes: new Set(),
    assignedText: new Map(),
    spawns: [...body.matchAll(/\bspawn(?:Child)?\s*\(\s*['"`]([^'"`]+)['"`]/g)].map(
      (m) => m[1] as string,
    ),
  };
  mergeSent(out.self, sentByCalls(body, /\bself\s*\??\.\s*send\s*/));
  mergeSent(out.parent, sentByCalls(body, /\b_parent\s*\??\.\s*send\s*/));
  for (const [to, event] of callsOf(body, /\bsendTo\s*/)) {
    const sent = event === undefined ? opaque() : eventsOf(event, [body]);
    if (/\b_parent\b|\bparent\b/.test(to ?? '')) mergeSent(out.parent, sent);
    else if (/\bself\b/.test(to ?? '')) mergeSent(out.self, sent);
  }
  for (const [arg] of callsOf(body, /\bassign\s*/)) {
    out.assigns = true;
    const text = (arg ?? '').trim();
    if (!text.startsWith('{')) {
      out.writes.add('*');
      continue;
    }
    for (const part of splitTop(balanced(text, 0).inner, ',')) {
      const match = /^(?:([\w$]+)|['"]([^'"]+)['"])\s*:/.exec(part);
      if (!match) {
        out.writes.add('*');
        continue;
      }
      const key = (match[1] ?? match[2]) as string;
      out.writes.add(key);
      out.assignedText.set(key, [
        ...(out.assignedText.get(key) ?? []),
        part.slice(match[0].length),
      ]);
    }
  }
  for (const [arg] of callsOf(body, /(?<![\w$.])enqueue\s*/)) {
    const text = (arg ?? '').trim();
    const name =
      /^['"`]([^'"`]+)['"`]$/.exec(text)?.[1] ??
      /^\{\s*type\s*:\s*['"`]([^'"`]+)['"`]/.exec(text)?.[1];
    if (name) out.named.push(name);
    else if (!BUILDERS.test(text)) seeNothing(out);
  }
  // `enqueue` handed to a helper (`addAll(enqueue, context)`): the helper may enqueue anything.
  if (/[\w$)]\s*\([^()]*(?<![\w$.])enqueue\b(?!\s*[.(])/.test(body.replace(/^[^)]*\)/, '')))
    seeNothing(out);
  return out;
}

function opaque(): SentEvents {
  return { types: new Set(), untraced: [{ kind: 'computed' }] };
}

function seeNothing(out: EnqueuedEffects): void {
  out.self.untraced.push({ kind: 'computed' });
  out.parent.untraced.push({ kind: 'computed' });
  out.assigns = true;
  out.writes.add('*');
}
