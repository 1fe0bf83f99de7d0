import {
  balanced,
  callsOf,
  conditionalBranches,
  isFunctionText,
  propertyOf,
  returnedExpressions,
  splitTop,
  stripParens,
} from './sourceText.js';

/** Where an event whose type the source does not name comes from. */
export type UntracedEvent =
  /** Read from the head of a context array (`context.queue[0]`): a queue replayed. */
  | { kind: 'queue'; key: string }
  /** Read from the actor's input (`input.event`): decided where the actor is invoked. */
  | { kind: 'input'; path: string; role: Role }
  /** Computed some other way (a model's answer, a helper's result, the incoming event). */
  | { kind: 'computed' };

/** The events some calls may send: the types traced to literals, and what could not be traced. */
export interface SentEvents {
  types: Set<string>;
  untraced: UntracedEvent[];
}

/** Whether an expression stands for a whole event or for its `type`. */
export type Role = 'event' | 'type';

const MAX_DEPTH = 8;
const LITERAL = /^(['"`])([^'"`$\\]*)\1$/;
const QUEUE_HEAD =
  /^context\s*\??\.\s*([\w$]+)\s*(?:\?\.\s*)?(?:\[\s*0\s*\]|\.at\(\s*0\s*\)|\.shift\(\s*\)|\.pop\(\s*\)|\.at\(\s*-1\s*\)|\[\s*context\s*\??\.\s*\1\s*\.length\s*-\s*1\s*\])/;
const INPUT = /^input\s*\??(?:\.\s*([\w$.?]+))?$/;

/** An empty `SentEvents`. */
export const nothingSent = (): SentEvents => ({ types: new Set(), untraced: [] });

/** Adds `more` into `into`. */
export function mergeSent(into: SentEvents, more: SentEvents): SentEvents {
  for (const type of more.types) into.types.add(type);
  into.untraced.push(...more.untraced);
  return into;
}

/**
 * The events every call of `callee` in `source` may send, argument `at` being the event: literal
 * types where the source names them (`{ type: 'A' }`, `ok ? 'A' : 'B'`, a local `const`), and
 * the rest as untraced (a queue's head, the input, anything computed).
 * @example sentByCalls("sendBack({ type: 'TICK' })", /\bsendBack/).types // Set { 'TICK' }
 */
export function sentByCalls(source: string, callee: RegExp, at = 0): SentEvents {
  const sent = nothingSent();
  for (const args of callsOf(source, callee)) {
    const arg = args[at];
    if (arg === undefined) sent.untraced.push({ kind: 'computed' });
    else mergeSent(sent, eventsOf(arg, [source]));
  }
  return sent;
}

/**
 * The events an expression may evaluate to: an event object (or a function returning one) whose
 * `type` is traced through conditionals and local constants.
 * @example eventsOf("({ context }) => ({ type: context.ok ? 'DONE' : 'RETRY' })", []).types
 *   // Set { 'DONE', 'RETRY' }
 */
export function eventsOf(expr: string, scopes: readonly string[], depth = 0): SentEvents {
  const text = stripParens(expr);
  const sent = nothingSent();
  if (depth > MAX_DEPTH) return untraced(sent, { kind: 'computed' });
  if (isFunctionText(text)) {
    const returned = returnedExpressions(text);
    if (!returned || returned.length === 0) return untraced(sent, { kind: 'computed' });
    for (const value of returned) mergeSent(sent, eventsOf(value, [text, ...scopes], depth + 1));
    return sent;
  }
  if (text.startsWith('{') && balanced(text, 0).end === text.length - 1) {
    const inner = balanced(text, 0).inner;
    const type = propertyOf(inner, 'type');
    if (type !== undefined) return typesOf(type, scopes, depth + 1);
    const spread = splitTop(inner, ',').find((part) => part.startsWith('...'));
    if (spread) return eventsOf(spread.slice(3), scopes, depth + 1);
    return untraced(sent, { kind: 'computed' });
  }
  const alternatives = alternativesOf(text);
  if (alternatives) {
    for (const part of alternatives) mergeSent(sent, eventsOf(part, scopes, depth + 1));
    return sent;
  }
  const literal = LITERAL.exec(text);
  if (literal) {
    sent.types.add(literal[2] as string);
    return sent;
  }
  return fromReference(text, scopes, depth, 'event');
}

/** The values a `type` field's expression may take. */
function typesOf(expr: string, scopes: readonly string[], depth: number): SentEvents {
  const text = stripParens(expr);
  const sent = nothingSent();
  if (depth > MAX_DEPTH) return untraced(sent, { kind: 'computed' });
  const literal = LITERAL.exec(text);
  if (literal) {
    sent.types.add(literal[2] as string);
    return sent;
  }
  const alternatives = alternativesOf(text);
  if (alternatives) {
    for (const part of alternatives) mergeSent(sent, typesOf(part, scopes, depth + 1));
    return sent;
  }
  const field = /^([\s\S]*?)\s*\??\.\s*type$/.exec(text);
  if (field) return fromReference(field[1] as string, scopes, depth, 'event');
  return fromReference(text, scopes, depth, 'type');
}

/** A queue's head, the input, or a local constant; anything else is computed. */
function fromReference(
  text: string,
  scopes: readonly string[],
  depth: number,
  role: Role,
): SentEvents {
  const resolve = role === 'event' ? eventsOf : typesOf;
  const sent = nothingSent();
  const queue = QUEUE_HEAD.exec(text);
  if (queue) return untraced(sent, { kind: 'queue', key: queue[1] as string });
  const input = INPUT.exec(text);
  if (input) {
    const path = (input[1] ?? '').replace(/\?/g, '');
    return untraced(sent, { kind: 'input', path, role });
  }
  if (!/^[A-Za-z_$][\w$]*$/.test(text)) return untraced(sent, { kind: 'computed' });
  for (const scope of scopes) {
    const found = declarationOf(text, scope, role);
    if (found) return found.kind === 'value' ? resolve(found.expr, scopes, depth + 1) : found.sent;
  }
  return untraced(sent, { kind: 'computed' });
}

type Declaration = { kind: 'value'; expr: string } | { kind: 'known'; sent: SentEvents };

/** How a local name is declared: `const name = expr`, `const [name] = context.queue`, `const { name } = input`. */
function declarationOf(name: string, scope: string, role: Role): Declaration | undefined {
  const plain = new RegExp(`\\b(?:const|let|var)\\s+${escapeName(name)}\\s*=\\s*`).exec(scope);
  if (plain) {
    const rest = scope.slice((plain.index ?? 0) + plain[0].length);
    const expr = splitTop(rest, ';')[0]?.split(/\n\s*(?:const|let|var|return|if)\b/)[0] ?? '';
    return { kind: 'value', expr };
  }
  const head = new RegExp(
    `\\b(?:const|let|var)\\s*\\[\\s*${escapeName(name)}\\b[^\\]]*\\]\\s*=\\s*context\\s*\\??\\.\\s*([\\w$]+)`,
  ).exec(scope);
  if (head)
    return {
      kind: 'known',
      sent: untraced(nothingSent(), { kind: 'queue', key: head[1] as string }),
    };
  const fromInput = new RegExp(
    `\\b(?:const|let|var)\\s*\\{[^}]*\\b${escapeName(name)}\\b[^}]*\\}\\s*=\\s*input\\b`,
  ).exec(scope);
  if (fromInput)
    return { kind: 'known', sent: untraced(nothingSent(), { kind: 'input', path: name, role }) };
  return undefined;
}

/** `c ? a : b`, `a || b`, `a ?? b` as the values they may take; undefined for anything else. */
function alternativesOf(text: string): string[] | undefined {
  const branches = conditionalBranches(text);
  if (branches) return branches;
  for (const operator of ['||', '??']) {
    const parts = splitTop(text, operator);
    if (parts.length > 1) return parts;
  }
  return undefined;
}

function untraced(sent: SentEvents, what: UntracedEvent): SentEvents {
  sent.untraced.push(what);
  return sent;
}

const escapeName = (name: string) => name.replace(/\$/g, '\\$');
