// Browser code. Each function here is sent to the page as its source text (`String(fn)`), so it
// may use only its parameters and browser globals: no imports at run time, no module variables.
import type { RunView } from '../runView.js';
import type { drawChart } from './drawChart.js';
import type { drawRun } from './drawRun.js';
import type { drawTrace } from './drawTrace.js';
import type { panZoom } from './panZoom.js';
import type { takenPath } from './takenPath.js';

/** How one run's chart is framed: `(x, y)` the chart point at the top-left, `k` the zoom. */
export interface ChartView {
  x: number;
  y: number;
  k: number;
  /** The user panned or zoomed: live redraws keep the view instead of framing the path again. */
  touched: boolean;
  /** Every state drawn in full, not only the path. */
  all: boolean;
  /** The chart's height on screen, as the last framing chose it. */
  height?: number;
  /** The layout the view was framed on: a new one (the run's path grew) is framed afresh. */
  layout?: unknown;
}

/** What the page's functions share; passed to each as its first argument. */
export interface Kit {
  h: typeof h;
  show: typeof show;
  readable: typeof readable;
  loopBadge: typeof loopBadge;
  takenPath: typeof takenPath;
  drawChart: typeof drawChart;
  drawTrace: typeof drawTrace;
  panZoom: typeof panZoom;
  drawRun: typeof drawRun;
  /** Chart views by run, kept across redraws. */
  views: Map<string, ChartView>;
}

export type Attrs = Record<string, string | number | boolean | undefined>;
export type Child = Node | string | number | false | null | undefined;

/**
 * An element: HTML, or SVG when the tag starts with `svg:` (`h('svg:rect', { x: 1 })`). Text
 * children become text nodes and attributes are set one by one: nothing is ever parsed as HTML.
 */
export function h(tag: string, attrs: Attrs = {}, ...children: Child[]): Element {
  const element = tag.startsWith('svg:')
    ? document.createElementNS('http://www.w3.org/2000/svg', tag.slice(4))
    : document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== false) element.setAttribute(name, String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** Untrusted run data as display text: strings as they are, anything else as indented JSON. */
export function show(value: unknown, max = 20000): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (value === undefined) text = '';
  else {
    try {
      text = JSON.stringify(value, null, 2) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}

/**
 * A rationale as a person reads it: the quoted messages in it are JSON string literals
 * (`"line one\nline \"two\""`, or cut short with `…`), shown decoded, in curly quotes, with their
 * line breaks.
 */
export function readable(text: string): string {
  return text.replace(/"((?:[^"\\\n]|\\.)*)("|…)/g, (literal, inner: string, end: string) => {
    try {
      return `“${JSON.parse(`"${inner}"`)}${end === '…' ? '…' : ''}”`;
    } catch {
      return literal;
    }
  });
}

/**
 * The loop badge: refine cycles against `maxRetries`. `max 5` while the loop has not refined
 * (before, during and after the run), `3/5` once it has, `atCap` when the cycles reached the cap.
 * None for a machine without `context.settings.maxRetries`.
 */
export function loopBadge(run: RunView | undefined): { text: string; atCap: boolean } | undefined {
  if (run?.maxRetries === undefined) return undefined;
  const max = run.maxRetries;
  const count = run.retryCount ?? 0;
  if (count === 0) return { text: `max ${max}`, atCap: false };
  return { text: `${count}/${max}`, atCap: count >= max };
}
