/** What `extractJson` found in a model's reply: a value, or why there is none. */
export type ExtractedJson =
  | { ok: true; value: unknown }
  | { ok: false; code: 'no_json' | 'invalid_json'; message: string };

const FENCE = /```[ \t]*([\w-]*)[^\n]*\n([\s\S]*?)```/g;

/**
 * Finds the JSON value in a model's reply: a fenced ```json block, the whole text, or the span from
 * the first `{`/`[` to the last `}`/`]`. Never evaluates anything.
 * @example extractJson('Sure!\n```json\n{"a": 1}\n```') // → { ok: true, value: { a: 1 } }
 */
export function extractJson(text: string): ExtractedJson {
  const fenced = fencedBody(text);
  if (fenced !== undefined) return parse(fenced, 'the ```json block');
  const whole = text.trim();
  if (whole === '') return { ok: false, code: 'no_json', message: 'The reply is empty.' };
  const direct = tryParse(whole);
  if (direct.ok) return direct;
  const span = jsonSpan(whole);
  if (span === undefined) {
    return {
      ok: false,
      code: 'no_json',
      message: 'The reply holds no JSON value; answer with the JSON only.',
    };
  }
  return parse(span, 'the reply');
}

function fencedBody(text: string): string | undefined {
  let unlabeled: string | undefined;
  for (const [, lang = '', body = ''] of text.matchAll(FENCE)) {
    if (/^jsonc?$/i.test(lang)) return body;
    if (lang === '' && unlabeled === undefined) unlabeled = body;
  }
  return unlabeled;
}

function jsonSpan(text: string): string | undefined {
  const start = text.search(/[{[]/);
  if (start < 0) return undefined;
  const close = text[start] === '{' ? '}' : ']';
  const end = text.lastIndexOf(close);
  return end > start ? text.slice(start, end + 1) : text.slice(start);
}

function parse(source: string, where: string): ExtractedJson {
  const parsed = tryParse(source.trim());
  if (parsed.ok) return parsed;
  return {
    ok: false,
    code: 'invalid_json',
    message: `${where} is not valid JSON: ${parsed.reason}`,
  };
}

function tryParse(source: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(source) };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}
