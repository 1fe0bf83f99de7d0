// Browser code, sent to the page as source text: see clientKit.ts.
import type { RunView } from '../runView.js';
import type { Kit } from './clientKit.js';

/**
 * The trace as a timeline: one row per step or decision with its start, state, decision, attempt,
 * duration, cost and rationale (decoded, line breaks kept), and a bar on the run's time axis. The
 * heading counts the entries and totals the cost.
 */
export function drawTrace(kit: Kit, run: RunView): { heading: string; list: Element } {
  const { h, show } = kit;
  const field = (value: unknown, key: string) =>
    typeof value === 'object' && value !== null
      ? (value as Record<string, unknown>)[key]
      : undefined;
  const number = (value: unknown) =>
    typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  const money = (cost: number) => (Math.abs(cost) >= 1 ? cost.toFixed(2) : cost.toPrecision(2));
  const trace = run.trace;
  const first = number(field(trace[0], 'startedAt')) ?? 0;
  let last = first;
  let summed = 0;
  let costed = false;
  for (const entry of trace) {
    const end =
      (number(field(entry, 'startedAt')) ?? first) + (number(field(entry, 'durationMs')) ?? 0);
    last = Math.max(last, end);
    const cost = number(field(entry, 'cost'));
    if (cost !== undefined) {
      summed += cost;
      costed = true;
    }
  }
  const span = Math.max(1, last - first);
  const list = h('ol', { class: 'timeline', 'data-testid': 'timeline', 'data-scroll': 'trace' });
  for (const entry of trace) {
    const startedAt = number(field(entry, 'startedAt')) ?? first;
    const duration = number(field(entry, 'durationMs')) ?? 0;
    const bar = h('span', { class: 'bar' }) as HTMLElement;
    bar.style.marginLeft = `${((startedAt - first) / span) * 100}%`;
    bar.style.width = `${Math.max(0.5, (duration / span) * 100)}%`;
    const decision = field(entry, 'decision');
    const cost = number(field(entry, 'cost'));
    const rationale = field(entry, 'rationale');
    list.append(
      h(
        'li',
        { class: decision === undefined ? 'step' : 'decision' },
        h('span', { class: 'at' }, `+${((startedAt - first) / 1000).toFixed(2)}s`),
        h('span', { class: 'state' }, show(field(entry, 'state'), 80)),
        decision === undefined ? null : h('span', { class: 'pill' }, `→ ${show(decision, 60)}`),
        h(
          'span',
          { class: 'meta' },
          `attempt ${show(field(entry, 'attempt'), 12)} · refine ${show(field(entry, 'retryCount'), 12)} · ${duration} ms`,
        ),
        cost === undefined
          ? null
          : h('span', { class: 'cost', 'data-testid': 'step-cost' }, `cost ${money(cost)}`),
        field(entry, 'failureKind') === undefined
          ? null
          : h('span', { class: 'pill bad' }, show(field(entry, 'failureKind'), 40)),
        typeof rationale === 'string'
          ? h('span', { class: 'rationale' }, kit.readable(show(rationale, 2000)))
          : null,
        h('span', { class: 'track' }, bar),
      ),
    );
  }
  const total = number(field(run.output, 'cost')) ?? (costed ? summed : undefined);
  const heading = `Trace (${trace.length})${total === undefined || !(costed || total > 0) ? '' : ` · cost ${money(total)}`}`;
  return { heading, list };
}
