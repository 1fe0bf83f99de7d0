// Small readers over JavaScript source text (a function's `toString()`): balanced brackets, the
// arguments of a call, the parts of an expression at its top level. They skip strings, template
// literals and comments, and stop at the end of the text when brackets do not balance.

const OPEN: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
const CLOSE = new Set([')', ']', '}']);

/** The index just past the string, template or comment starting at `at`, or `at` if none starts there. */
function skipQuoted(text: string, at: number): number {
  const c = text[at];
  if (c === '/' && text[at + 1] === '/') {
    const end = text.indexOf('\n', at);
    return end < 0 ? text.length : end;
  }
  if (c === '/' && text[at + 1] === '*') {
    const end = text.indexOf('*/', at + 2);
    return end < 0 ? text.length : end + 2;
  }
  if (c !== "'" && c !== '"' && c !== '`') return at;
  for (let i = at + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === c) return i + 1;
  }
  return text.length;
}

/** Calls `visit(index, depth)` for every character outside strings and comments. */
function scan(text: string, visit: (at: number, depth: number) => boolean | undefined): void {
  let depth = 0;
  for (let i = 0; i < text.length; ) {
    const next = skipQuoted(text, i);
    if (next !== i) {
      i = next;
      continue;
    }
    const c = text[i] as string;
    if (CLOSE.has(c)) depth--;
    if (visit(i, depth) === true) return;
    if (c in OPEN) depth++;
    i++;
  }
}

/** The text between the bracket at `open` and its match (exclusive), and the index of the match. */
export function balanced(text: string, open: number): { inner: string; end: number } {
  let end = text.length;
  scan(text.slice(open), (at, depth) => {
    if (at > 0 && depth === 0 && CLOSE.has(text[open + at] as string)) {
      end = open + at;
      return true;
    }
    return undefined;
  });
  return { inner: text.slice(open + 1, end), end };
}

/** Splits `text` at `separator` where it is not nested in brackets, strings or comments. */
export function splitTop(text: string, separator: string): string[] {
  const parts: string[] = [];
  let from = 0;
  scan(text, (at, depth) => {
    if (depth === 0 && text.startsWith(separator, at)) {
      parts.push(text.slice(from, at));
      from = at + separator.length;
    }
    return undefined;
  });
  parts.push(text.slice(from));
  return parts.map((part) => part.trim());
}

/**
 * Every call of `callee` (a regular expression matching up to, not including, the open paren)
 * in `source`, as the list of its arguments' texts.
 * @example callsOf("sendBack({ type: 'A' }); sendBack(next)", /\bsendBack/) // [["{ type: 'A' }"], ['next']]
 */
export function callsOf(source: string, callee: RegExp): string[][] {
  const out: string[][] = [];
  const pattern = new RegExp(`${callee.source}\\(`, 'g');
  for (const match of source.matchAll(pattern)) {
    const open = (match.index ?? 0) + match[0].length - 1;
    if (insideQuoted(source, match.index ?? 0)) continue;
    const args = splitTop(balanced(source, open).inner, ',').filter((arg) => arg !== '');
    out.push(args);
  }
  return out;
}

/** True when `at` lies inside a string, template or comment of `text`. */
export function insideQuoted(text: string, at: number): boolean {
  for (let i = 0; i < at; ) {
    const next = skipQuoted(text, i);
    if (next > at) return true;
    i = next === i ? i + 1 : next;
  }
  return false;
}

/** A conditional `c ? a : b` at the top level, as its two branches; undefined for anything else. */
export function conditionalBranches(expr: string): [string, string] | undefined {
  let question = -1;
  let colon = -1;
  let nested = 0;
  scan(expr, (at, depth) => {
    if (depth !== 0) return undefined;
    const c = expr[at];
    const next = expr[at + 1];
    if (c === '?' && next !== '.' && next !== '?' && expr[at - 1] !== '?') {
      if (question < 0) question = at;
      else nested++;
    } else if (c === ':' && question >= 0) {
      if (nested === 0) {
        colon = at;
        return true;
      }
      nested--;
    }
    return undefined;
  });
  if (question < 0 || colon < 0) return undefined;
  return [expr.slice(question + 1, colon).trim(), expr.slice(colon + 1).trim()];
}

/** The value expression of property `key` in an object literal's inner text, if it names one. */
export function propertyOf(objectInner: string, key: string): string | undefined {
  for (const part of splitTop(objectInner, ',')) {
    if (part === key) return key;
    const match = new RegExp(`^(?:${key}|['"]${key}['"])\\s*:`).exec(part);
    if (match) return part.slice(match[0].length).trim();
  }
  return undefined;
}

/** The expressions a function's text returns: an arrow's expression body, or each `return` in a block. */
export function returnedExpressions(fn: string): string[] | undefined {
  const arrow = /^\s*(?:async\s+)?(?:\([^)]*\)|[\w$]+|\(\s*\{[\s\S]*?\}\s*\))\s*=>\s*/.exec(fn);
  const arrowAt = arrow ? arrow[0].length : headEnd(fn);
  if (arrowAt < 0) return undefined;
  const body = fn.slice(arrowAt).trim();
  if (!body.startsWith('{')) return [stripParens(body)];
  const inner = balanced(body, 0).inner;
  return [...inner.matchAll(/\breturn\b\s*/g)]
    .filter((m) => !insideQuoted(inner, m.index ?? 0))
    .map((m) => {
      const rest = inner.slice((m.index ?? 0) + m[0].length);
      return stripParens(splitTop(rest, ';')[0]?.split('\n')[0] ?? '');
    });
}

/** Where the body of a function-like text starts: after `=>`, or at the `{` after its parameters. */
export function headEnd(fn: string): number {
  const start = fn.indexOf('(');
  if (start < 0) return -1;
  const { end } = balanced(fn, start);
  const rest = fn.slice(end + 1);
  const arrow = /^\s*=>\s*/.exec(rest);
  if (arrow) return end + 1 + arrow[0].length;
  const brace = rest.indexOf('{');
  return brace < 0 ? -1 : end + 1 + brace;
}

/** `(x)` → `x`, repeatedly, when the parentheses wrap the whole text. */
export function stripParens(text: string): string {
  let out = text.trim().replace(/;$/, '').trim();
  while (out.startsWith('(') && balanced(out, 0).end === out.length - 1)
    out = out.slice(1, -1).trim();
  return out;
}

/** True when the text is a function expression (an arrow or `function`). */
export function isFunctionText(text: string): boolean {
  return /^\s*(?:async\s+)?(?:function\b|(?:\([^()]*\)|[\w$]+)\s*=>|\(\s*\{[\s\S]*?\}\s*\)\s*=>)/.test(
    text,
  );
}

const KEYWORDS = new Set([
  'if',
  'for',
  'while',
  'switch',
  'catch',
  'function',
  'return',
  'typeof',
  'async',
]);

/**
 * The calls in `text` outside its string literals, keywords left out: each callee's name, and
 * whether it is a method (`.name(`).
 * @example callSites("a.pipe(map(f)); if (x) go('b(')") // pipe (method), map, go
 */
export function callSites(text: string): { method: boolean; name: string }[] {
  return [...text.matchAll(/(\.?)\s*([A-Za-z_$][\w$]*)\s*\(/g)]
    .filter((m) => !insideQuoted(text, m.index ?? 0) && !KEYWORDS.has(m[2] as string))
    .map((m) => ({ method: m[1] === '.', name: m[2] as string }));
}
