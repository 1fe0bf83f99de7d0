import {
  balanced,
  callSites,
  headEnd,
  insideQuoted,
  isFunctionText,
  splitTop,
} from './sourceText.js';

// What an event observable may emit, read from its creator's source. Its literal event types are
// the whole answer only when every stream it builds is one the check can read: rxjs creators and
// operators that emit what they are given or what a function they are given returns. A helper it
// cannot read (`fromPressedKeys(…)`, `ticker()`) may emit events of any type, and so may an event
// whose type is computed (`{ type: kind }`).

/** Calls whose function arguments map a value to a value (or start nothing): read, not followed. */
const MAPPING =
  /(?<![.\w$])(map|filter|scan|distinctUntilChanged|pairwise|timer|interval|animationFrames|of|from|fromEvent|merge)\s*\(/g;
const KNOWN = new Set([
  'map',
  'filter',
  'scan',
  'distinctUntilChanged',
  'pairwise',
  'timer',
  'interval',
  'animationFrames',
  'of',
  'from',
  'fromEvent',
  'merge',
]);

/** What an event observable's source says it emits. */
export interface ObservableEvents {
  /** The literal event types it names. */
  types: ReadonlySet<string>;
  /** It builds an event whose type is computed (`{ type: kind }`). */
  computed: boolean;
  /** Every stream it builds is rxjs's (creators, one-to-one operators, `.pipe`): nothing unread emits. */
  readable: boolean;
}

/**
 * Reads an event observable's creator: the literal event types it names (its operators map values
 * to events anywhere in the pipe), whether it computes a type, and whether every stream it builds
 * can be read (any call but rxjs's creators, one-to-one operators and `.pipe` may emit anything).
 * @example observableEventTypes("() => merge(fromFrames().pipe(map(() => ({ type: 'LOG' }))), ticker())")
 *   // → { types: Set { 'LOG' }, computed: false, readable: false }
 */
export function observableEventTypes(body: string): ObservableEvents {
  const types = new Set<string>();
  let computed = false;
  for (const m of body.matchAll(/\btype\s*:\s*/g)) {
    if (insideQuoted(body, m.index ?? 0)) continue;
    const rest = body.slice((m.index ?? 0) + m[0].length);
    const literal = /^(['"`])([^'"`$\\]+)\1\s*(?=[,}\s)])/.exec(rest);
    if (literal) types.add(literal[2] as string);
    else computed = true;
  }
  return { types, computed, readable: readable(body) };
}

/** True when every call in the creator, outside the functions it hands rxjs, is rxjs's or `.pipe`. */
function readable(body: string): boolean {
  const start = headEnd(body);
  if (start < 0) return false;
  let rest = body.slice(start);
  for (let guard = 0; guard < 1000; guard++) {
    MAPPING.lastIndex = 0;
    let changed = false;
    for (const match of rest.matchAll(MAPPING)) {
      if (insideQuoted(rest, match.index ?? 0)) continue;
      const open = (match.index ?? 0) + match[0].length - 1;
      const { inner, end } = balanced(rest, open);
      const args = splitTop(inner, ',').map((arg) => (isFunctionText(arg) ? 'FN' : arg));
      rest = `${rest.slice(0, match.index)}KNOWN_${match[1]}[${args.join(', ')}]${rest.slice(end + 1)}`;
      changed = true;
      break;
    }
    if (!changed) break;
  }
  return callSites(rest).every((call) =>
    call.method ? call.name === 'pipe' : KNOWN.has(call.name),
  );
}
