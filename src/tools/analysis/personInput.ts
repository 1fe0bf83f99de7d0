import {
  balanced,
  callSites,
  callsOf,
  headEnd,
  insideQuoted,
  isFunctionText,
  splitTop,
} from './sourceText.js';

// Reading an actor's source for input only the outside gives it — a person at a terminal or in a
// page — without running it. A guess that turns out wrong here calls an automated cycle gated, so
// every test is one-sided: the actor counts as relaying a person only when the input source is
// named by an API whose meaning is fixed (`process.stdin`, `window.prompt`, a listener registered
// for a DOM event type only a person makes) and nothing else in it can send or settle on its own. Anything else (a helper it calls, a method on an object it holds, a literal that is only an
// event's type) leaves the actor undecided.

/** A prompt a person answers: the browser's, inquirer's or enquirer's (called first thing, awaited). */
const PROMPT =
  /^(?:(?:window|globalThis)\s*\.\s*prompt|(?:inquirer|enquirer)\s*\.\s*prompt)\s*(?:\?\.\s*)?\(/;
/** DOM event types only a person makes: keys, pointer, touch, clicks, form input. */
const UI =
  '(?:key(?:down|up|press)|mouse\\w*|pointer\\w*|touch\\w*|(?:dbl)?click|wheel|contextmenu|drag\\w*|drop|input|change|submit)';
const UI_LITERAL = new RegExp(`^(['"\`])${UI}\\1$`, 'i');
/** Registrations whose first argument is the event type: `addEventListener`, `.on`, `.once`. */
const REGISTER = /(?:\baddEventListener|\.\s*on|\.\s*once)\s*/;
/** What a person-relaying callback may call outside its handlers: registering and removing them. */
const LISTENER_METHODS = new Set(['addEventListener', 'removeEventListener', 'on', 'once', 'off']);

/**
 * Who gives an actor its input, read from its source (`body`, the creator's text), or undefined
 * when the source does not show that only the outside does.
 * - a promise that sends its parent nothing (`sendsNothing`) relays a person when the first thing
 *   it does is wait for one (see `promiseInput`);
 * - a callback relays a person when every `sendBack` call sits in a handler registered for a
 *   person's DOM events (or on `process.stdin`) and the handler starts nothing of its own;
 * - an (event) observable relays a person when it is built from nothing but `fromEvent` over a
 *   person's DOM events (or `process.stdin`), `merge`, `.pipe` and one-to-one operators
 *   (`map`, `filter`, `scan`, `distinctUntilChanged`, `pairwise`).
 * @example personInput('callback', "({ sendBack }) => { const k = (e) => sendBack({ type: 'K' }); window.addEventListener('keydown', k); }", false)
 *   // → 'a person (UI events)'
 */
export function personInput(kind: string, body: string, sendsNothing: boolean): string | undefined {
  if (kind === 'callback') return callbackInput(body, ['sendBack']);
  if (kind === 'event-observable' || kind === 'observable') return observableInput(body);
  return kind === 'promise' && sendsNothing ? promiseInput(body) : undefined;
}

/**
 * A promise completes on a person's input only when the first thing its body does is wait for
 * it: a prompt (`window.prompt(…)`, `await inquirer.prompt(…)`), or a `new Promise` whose
 * executor settles only in handlers for the terminal or a person's DOM events (read as a callback
 * whose senders are `resolve` and `reject`).
 */
function promiseInput(body: string): string | undefined {
  const start = headEnd(body);
  if (start < 0) return undefined;
  let first = body.slice(start).trim();
  if (first.startsWith('{')) first = splitTop(balanced(first, 0).inner, ';')[0] ?? '';
  first = first
    .replace(/^(?:return\b|(?:const|let|var)\s+[\w$]+\s*=)\s*/, '')
    .replace(/^await\b\s*/, '');
  if (PROMPT.test(first)) return 'the terminal';
  const created = /^new\s+Promise\s*\(/.exec(first);
  if (!created) return undefined;
  const executor = balanced(first, created[0].length - 1).inner.trim();
  const params = /^(?:async\s+)?(?:\(\s*([\w$]+)\s*(?:,\s*([\w$]+)\s*)?\)|([\w$]+))\s*=>/.exec(
    executor,
  );
  const senders = [params?.[1] ?? params?.[3], params?.[2]].filter(
    (name): name is string => name !== undefined,
  );
  return senders.length > 0 ? callbackInput(executor, senders) : undefined;
}

/** `body` is a function whose parameters name `senders`: every call of them must sit in a handler. */
function callbackInput(body: string, senders: string[]): string | undefined {
  const start = headEnd(body);
  if (start < 0) return undefined;
  const inner = body.slice(start);
  const handlers = new Set<string>();
  let who: string | undefined;
  for (const args of callsOf(inner, REGISTER)) {
    if (args[1] !== undefined && UI_LITERAL.test(args[0] ?? '')) {
      who ??= 'a person (UI events)';
      handlers.add(args[1]);
    }
  }
  for (const match of inner.matchAll(/\bprocess\.stdin\s*\.\s*(?:on|once)\s*\(/g)) {
    const args = splitTop(balanced(inner, (match.index ?? 0) + match[0].length - 1).inner, ',');
    if (args[1] === undefined) continue;
    who = 'the terminal';
    handlers.add(args[1]);
  }
  if (!who) return undefined;
  const texts: string[] = [];
  for (const handler of handlers) {
    const text = handlerText(inner, handler, senders);
    if (text === undefined || startsSomething(text, senders)) return undefined;
    texts.push(text);
  }
  const inside = texts.reduce((n, text) => n + countNames(text, senders), 0);
  if (inside === 0 || inside !== countNames(inner, senders)) return undefined;
  // Outside its handlers the callback only registers and removes them: nothing else it starts
  // (a helper, a subscription, an emitter it drives) can send.
  const rest = texts
    .reduce((text, handler) => text.split(handler).join('H'), inner)
    .replace(/\bconsole\s*\.\s*\w+\s*\(/g, '(');
  return callSites(rest).every((call) => call.method && LISTENER_METHODS.has(call.name))
    ? who
    : undefined;
}

/** The handler's own text: inline, or the function a local name is bound to. */
function handlerText(body: string, handler: string, senders: string[]): string | undefined {
  if (senders.includes(handler) || isFunctionText(handler)) return handler;
  if (!/^[\w$]+$/.test(handler)) return undefined;
  const declared = new RegExp(
    `\\b(?:(?:const|let|var)\\s+${handler}\\s*=\\s*(?:async\\s+)?(?:function\\b[\\w$\\s]*)?|function\\s+${handler}\\s*)(?=[(\\w$])`,
  ).exec(body);
  if (!declared) return undefined;
  const from = declared.index + declared[0].length;
  let at = from;
  if (body[at] === '(') at = balanced(body, at).end + 1;
  else at += /^[\w$]+/.exec(body.slice(at))?.[0].length ?? 0;
  const arrow = /^\s*(?:=>)?\s*/.exec(body.slice(at))?.[0] ?? '';
  at += arrow.length;
  if (body[at] === '{') return body.slice(from, balanced(body, at).end + 1);
  if (!arrow.includes('=>')) return undefined;
  // An expression body ends at the first `;`, top-level comma or line end: never later.
  const expr = (splitTop(splitTop(body.slice(at), ';')[0] ?? '', ',')[0] ?? '').split('\n')[0];
  return body.slice(from, at) + (expr ?? '');
}

/** A handler that awaits, subscribes, listens or calls anything but a sender may send later on its own. */
function startsSomething(handler: string, senders: string[]): boolean {
  if (/\bawait\b|\.then\s*\(|\.subscribe\s*\(|\.on\s*\(|addEventListener/.test(handler))
    return true;
  return freeCalls(handler).some((name) => !senders.includes(name));
}

function countNames(text: string, names: string[]): number {
  const pattern = new RegExp(`(?<![.\\w$])(?:${names.join('|')})(?![\\w$])`, 'g');
  return [...text.matchAll(pattern)].filter((m) => !insideQuoted(text, m.index ?? 0)).length;
}

/** The names of the plain (not method) calls in `text`, outside strings. */
function freeCalls(text: string): string[] {
  return callSites(text)
    .filter((call) => !call.method)
    .map((call) => call.name);
}

function observableInput(body: string): string | undefined {
  const start = headEnd(body);
  if (start < 0) return undefined;
  let rest = body.slice(start);
  let who: string | undefined;
  // Blank out what one-to-one operators and fromEvent are given: it runs per value, starts nothing.
  for (;;) {
    const match = /(?<![.\w$])(map|filter|scan|distinctUntilChanged|pairwise|fromEvent)\s*\(/.exec(
      rest,
    );
    if (!match) break;
    const open = match.index + match[0].length - 1;
    const { inner, end } = balanced(rest, open);
    if (match[1] === 'fromEvent') {
      const args = splitTop(inner, ',');
      if (UI_LITERAL.test(args[1] ?? '')) who ??= 'a person (UI events)';
      else if (args[0] === 'process.stdin') who = 'the terminal';
      else return undefined;
    }
    rest = `${rest.slice(0, match.index)}${match[1] === 'fromEvent' ? 'SOURCE' : 'OP'}${rest.slice(end + 1)}`;
  }
  if (!who) return undefined;
  const allowed = callSites(rest).every((call) =>
    call.method ? call.name === 'pipe' : call.name === 'merge',
  );
  return allowed ? who : undefined;
}
