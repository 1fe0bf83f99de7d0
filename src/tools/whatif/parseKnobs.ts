import { parseWhatIfChange, WHAT_IF_KNOBS, type WhatIfChange } from './candidateSettings.js';

const NUMERIC = new Set([
  'maxRetries',
  'maxAttempts',
  'maxCost',
  'deadlineMs',
  'maxRetryDelayMs',
  'retryDelayMs',
]);
const NULLABLE = new Set(['maxCost', 'deadlineMs']);
const MAX_SWEEP = 100;

/** One knob's value as text: a number, `none` (no cost budget, no deadline), `off` (no stall), a boolean. */
function knobValue(knob: string, text: string): unknown {
  if (NULLABLE.has(knob) && (text === 'none' || text === 'null')) return null;
  if (NUMERIC.has(knob)) return text.trim() === '' ? Number.NaN : Number(text);
  if (knob === 'stall') {
    if (text === 'off' || text === 'false') return false;
    const [after = '', on] = text.split(':');
    return { after: Number(after), ...(on === undefined ? {} : { on }) };
  }
  if (text === 'true') return true;
  if (text === 'false') return false;
  return text;
}

function split(text: string): [string, string] | string {
  const at = text.indexOf('=');
  const knob = text.slice(0, at).trim();
  if (at < 0 || !(WHAT_IF_KNOBS as string[]).includes(knob)) {
    return `'${text}': write <knob>=<value>, the knob one of ${WHAT_IF_KNOBS.join(', ')}`;
  }
  return [knob, text.slice(at + 1).trim()];
}

/**
 * Reads `knob=value` pairs (`maxRetries=2`, `maxCost=none`, `stall=2:verdict`, `fallback=false`)
 * into one candidate change, or returns why one does not parse.
 * @example parseKnobs(['maxRetries=1', 'stall=off']) // { maxRetries: 1, stall: false }
 */
export function parseKnobs(pairs: readonly string[]): WhatIfChange | string {
  const change: Record<string, unknown> = {};
  for (const pair of pairs) {
    const parts = split(pair);
    if (typeof parts === 'string') return parts;
    change[parts[0]] = knobValue(...parts);
  }
  return checked(change);
}

/**
 * Reads a sweep, one knob over a range or a list (`maxRetries=0..6`, `maxCost=5,10,none`), into
 * one candidate per value, or returns why it does not parse.
 * @example parseSweep('maxRetries=0..2').candidates // [{ maxRetries: 0 }, { maxRetries: 1 }, { maxRetries: 2 }]
 */
export function parseSweep(text: string): { knob: string; candidates: WhatIfChange[] } | string {
  const parts = split(text);
  if (typeof parts === 'string') return parts;
  const [knob, values] = parts;
  const range = /^(\d+)\s*\.\.\s*(\d+)$/.exec(values);
  let texts: string[];
  if (range) {
    const from = Number(range[1]);
    const to = Number(range[2]);
    if (to < from || to - from >= MAX_SWEEP) {
      return `'${text}': a range runs upwards over at most ${MAX_SWEEP} values`;
    }
    texts = Array.from({ length: to - from + 1 }, (_, i) => String(from + i));
  } else texts = values.split(',').map((value) => value.trim());
  if (texts.length > MAX_SWEEP) return `'${text}': at most ${MAX_SWEEP} values`;
  const candidates: WhatIfChange[] = [];
  for (const value of texts) {
    const change = checked({ [knob]: knobValue(knob, value) });
    if (typeof change === 'string') return change;
    candidates.push(change);
  }
  return { knob, candidates };
}

function checked(change: Record<string, unknown>): WhatIfChange | string {
  try {
    return parseWhatIfChange(change);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return message.replace(/^loopchart: /, '').replace(/:?\s*\n\s*(- )?/g, ': ');
  }
}
