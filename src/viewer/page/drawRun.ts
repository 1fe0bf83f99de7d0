// Browser code, sent to the page as source text: see clientKit.ts.
import type { ChartLayout } from '../ChartLayout.js';
import type { RunView } from '../runView.js';
import type { Kit } from './clientKit.js';

/** Draws one run: its status banner (with the `LoopError`), chart, last candidate, trace timeline. */
export function drawRun(kit: Kit, run: RunView, layout: ChartLayout | undefined): Element {
  const { h, show } = kit;
  const field = (value: unknown, key: string) =>
    typeof value === 'object' && value !== null
      ? (value as Record<string, unknown>)[key]
      : undefined;
  const output = run.output;
  const status = field(output, 'status');
  const ok = field(output, 'ok');
  const error = field(output, 'error');

  let banner: Element;
  if (run.status === 'done') {
    const tone = ok === true ? 'ok' : ok === false ? 'bad' : 'neutral';
    const facts = h('dl', { class: 'loop-error' });
    if (error !== undefined) {
      for (const key of [
        'kind',
        'state',
        'cap',
        'attempts',
        'message',
        'fingerprint',
        'cause',
        'lastOutput',
      ]) {
        const value = field(error, key);
        if (value !== undefined)
          facts.append(h('dt', {}, key), h('dd', {}, h('pre', {}, show(value, 4000))));
      }
    }
    banner = h(
      'section',
      {
        class: `banner ${tone}`,
        'data-testid': 'status-banner',
        'data-status': typeof status === 'string' ? status : 'done',
      },
      h('strong', { class: 'status' }, typeof status === 'string' ? status : 'done'),
      h('span', { class: 'rationale' }, show(field(output, 'rationale'), 600)),
      error === undefined ? null : h('h3', {}, 'LoopError'),
      error === undefined ? null : facts,
    );
  } else if (run.status === 'error') {
    banner = h(
      'section',
      { class: 'banner bad', 'data-testid': 'status-banner', 'data-status': 'error' },
      h('strong', { class: 'status' }, 'actor error'),
      h('span', {}, run.errorMessage ?? ''),
    );
  } else {
    const where = typeof run.value === 'string' ? run.value : show(run.value, 200);
    banner = h(
      'section',
      { class: 'banner running', 'data-testid': 'status-banner', 'data-status': run.status },
      h('strong', { class: 'status' }, run.status === 'active' ? 'running' : run.status),
      h('span', {}, where),
      run.connected
        ? null
        : h('span', { class: 'warning' }, ' · the reporting process disconnected'),
    );
  }

  const chart = h('div', { class: 'chart-wrap' });
  if (layout) chart.append(kit.drawChart(kit, layout, run));
  else
    chart.append(
      h(
        'p',
        { class: 'muted' },
        run.chartError ? `No chart: ${run.chartError}` : 'Drawing the chart…',
      ),
    );

  const verdict = run.verdict;
  const verdictError = field(verdict, 'error');
  const verdictText =
    verdict === undefined
      ? ''
      : field(verdict, 'valid') === true
        ? 'valid'
        : field(verdict, 'malformed') !== undefined
          ? `malformed: ${show(field(verdict, 'malformed'), 2000)}`
          : `${show(field(verdictError, 'severity'), 40) || 'no diagnostic'}: ${show(field(verdictError, 'message'), 4000)}`;

  const trace = run.trace;
  const first = Number(field(trace[0], 'startedAt')) || 0;
  const last = trace.reduce<number>(
    (end, entry) =>
      Math.max(
        end,
        (Number(field(entry, 'startedAt')) || 0) + (Number(field(entry, 'durationMs')) || 0),
      ),
    first,
  );
  const span = Math.max(1, last - first);
  const timeline = h('ol', { class: 'timeline', 'data-testid': 'timeline' });
  for (const entry of trace) {
    const startedAt = Number(field(entry, 'startedAt')) || first;
    const duration = Number(field(entry, 'durationMs')) || 0;
    const bar = h('span', { class: 'bar' }) as HTMLElement;
    bar.style.marginLeft = `${((startedAt - first) / span) * 100}%`;
    bar.style.width = `${Math.max(0.5, (duration / span) * 100)}%`;
    const decision = field(entry, 'decision');
    timeline.append(
      h(
        'li',
        { class: decision === undefined ? 'step' : 'decision' },
        h('span', { class: 'at' }, `+${((startedAt - first) / 1000).toFixed(2)}s`),
        h('span', { class: 'state' }, show(field(entry, 'state'), 80)),
        decision === undefined ? null : h('span', { class: 'pill' }, `→ ${show(decision, 60)}`),
        h(
          'span',
          { class: 'meta' },
          `attempt ${show(field(entry, 'attempt'), 12)} · r${show(field(entry, 'retryCount'), 12)} · ${duration} ms`,
        ),
        field(entry, 'failureKind') === undefined
          ? null
          : h('span', { class: 'pill bad' }, show(field(entry, 'failureKind'), 40)),
        field(entry, 'rationale') === undefined
          ? null
          : h('span', { class: 'rationale' }, show(field(entry, 'rationale'), 600)),
        h('span', { class: 'track' }, bar),
      ),
    );
  }

  const events = h('ol', { class: 'events' });
  for (const event of run.recentEvents) {
    events.append(
      h('li', {}, h('span', { class: 'kind' }, event.kind), ` ${event.actor} · ${event.type}`),
    );
  }

  return h(
    'article',
    { class: 'run', 'data-run': run.id },
    h(
      'header',
      { class: 'run-head' },
      h('h2', {}, run.label),
      h('span', { class: 'muted' }, run.id),
    ),
    banner,
    chart,
    h(
      'section',
      { class: 'panels' },
      h(
        'div',
        { class: 'panel' },
        h('h3', {}, 'Last candidate'),
        h('pre', { class: 'candidate', 'data-testid': 'candidate' }, show(run.candidate)),
        h('h3', {}, 'Validator'),
        h('p', { class: 'verdict', 'data-testid': 'verdict' }, verdictText),
        run.pending === undefined ? null : h('h3', {}, 'Waiting for a person'),
        run.pending === undefined ? null : h('pre', {}, show(run.pending, 4000)),
      ),
      h('div', { class: 'panel' }, h('h3', {}, `Trace (${trace.length})`), timeline),
      h(
        'div',
        { class: 'panel' },
        h(
          'h3',
          {},
          `Inspection events (${run.eventCount}${run.droppedEvents ? `, ${run.droppedEvents} oldest dropped` : ''})`,
        ),
        events,
      ),
    ),
  );
}
