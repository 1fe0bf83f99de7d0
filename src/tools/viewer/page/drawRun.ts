// Browser code, sent to the page as source text: see clientKit.ts.
import type { ChartLayout } from '../ChartLayout.js';
import type { RunView } from '../runView.js';
import type { Kit } from './clientKit.js';

/** The runs linked to the one drawn: the run it is part of, and its own (a pipeline's stages). */
export interface LinkedRuns {
  parent?: RunView | undefined;
  children: RunView[];
  select: (runId: string) => void;
}

/**
 * Draws one run: its status banner (with the `LoopError`), chart, and the panels that have
 * something to show (linked runs, candidate, validator, waiting person, output, trace, events).
 */
export function drawRun(
  kit: Kit,
  run: RunView,
  layout: ChartLayout | undefined,
  mode: 'live' | 'static' = 'live',
  related: LinkedRuns = { children: [], select: () => {} },
): Element {
  const { h, show } = kit;
  const field = (value: unknown, key: string) =>
    typeof value === 'object' && value !== null
      ? (value as Record<string, unknown>)[key]
      : undefined;
  const output = run.output;
  const status = field(output, 'status');
  const isOutcome = typeof status === 'string';
  const ok = field(output, 'ok');
  const error = field(output, 'error');

  const leaves = (value: unknown, depth: number): string[] =>
    typeof value === 'string'
      ? [value]
      : typeof value === 'object' && value !== null && depth < 16
        ? Object.entries(value).flatMap(([key, inner]) =>
            leaves(inner, depth + 1).map((leaf) => `${key}.${leaf}`),
          )
        : [];
  const where = leaves(run.value, 0).join(', ').slice(0, 300);

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
    const rationale = field(output, 'rationale');
    banner = h(
      'section',
      {
        class: `banner ${tone}`,
        'data-testid': 'status-banner',
        'data-status': isOutcome ? status : 'done',
      },
      h('strong', { class: 'status' }, isOutcome ? status : 'done'),
      typeof rationale === 'string'
        ? h('span', { class: 'rationale' }, kit.readable(show(rationale, 2000)))
        : h('span', { class: 'muted' }, `in ${where}`),
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

  const chart = h('div', { class: 'chart-wrap', 'data-chart': layout ? run.chartId : undefined });
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
    field(verdict, 'valid') === true
      ? 'valid'
      : field(verdict, 'malformed') !== undefined
        ? `malformed: ${show(field(verdict, 'malformed'), 2000)}`
        : `${show(field(verdictError, 'severity'), 40) || 'no diagnostic'}: ${show(field(verdictError, 'message'), 4000)}`;

  const panel = (title: string, testId: string, ...body: Element[]) =>
    h(
      'div',
      { class: `panel panel-${testId}`, 'data-testid': `panel-${testId}` },
      h('h3', {}, title),
      ...body,
    );
  const side: Element[] = [];
  if (run.candidate !== undefined)
    side.push(
      panel(
        'Last candidate',
        'candidate',
        h('pre', { class: 'candidate', 'data-testid': 'candidate' }, show(run.candidate)),
      ),
    );
  if (verdict !== undefined)
    side.push(
      panel(
        'Validator',
        'verdict',
        h('p', { class: 'verdict', 'data-testid': 'verdict' }, verdictText),
      ),
    );
  if (run.whatIf !== undefined && run.whatIf.length > 0) {
    const items = run.whatIf.map((line) =>
      h('li', {}, h('strong', {}, show(line.candidate, 200)), `: ${show(line.text, 1000)}`),
    );
    side.push(panel('What if', 'what-if', h('ul', { class: 'what-if' }, ...items)));
  }
  if (run.pending !== undefined)
    side.push(panel('Waiting for a person', 'pending', h('pre', {}, show(run.pending, 4000))));
  if (!isOutcome && output !== undefined)
    side.push(panel('Output', 'output', h('pre', { 'data-testid': 'output' }, show(output, 8000))));
  if (run.recentEvents.length > 0) {
    const events = h('ol', { class: 'events', 'data-scroll': 'events' });
    for (const event of run.recentEvents) {
      events.append(
        h('li', {}, h('span', { class: 'kind' }, event.kind), ` ${event.actor} · ${event.type}`),
      );
    }
    const dropped = run.droppedEvents ? `, ${run.droppedEvents} oldest dropped` : '';
    side.push(panel(`Inspection events (${run.eventCount}${dropped})`, 'events', events));
  }
  const main: Element[] = [];
  const link = (other: RunView, text: string) => {
    const button = h('button', { type: 'button', class: 'link', 'data-run': other.id }, text);
    button.addEventListener('click', () => related.select(other.id));
    return button;
  };
  if (related.children.length > 0) {
    const items = related.children.map((child) => {
      const status = field(child.output, 'status');
      const badge = kit.loopBadge(child);
      return h(
        'li',
        {},
        link(child, child.machineId),
        h('span', { class: 'muted' }, ` ${typeof status === 'string' ? status : child.status}`),
        badge ? h('span', { class: 'pill' }, badge.text) : null,
      );
    });
    main.push(panel('Linked runs', 'linked', h('ul', { class: 'linked-runs' }, ...items)));
  }
  if (run.trace.length > 0) {
    const trace = kit.drawTrace(kit, run);
    main.push(panel(trace.heading, 'trace', trace.list));
  }

  const started = new Date(run.startedAt);
  const about =
    mode === 'static'
      ? null
      : h(
          'span',
          { class: 'muted', title: `run id ${run.id}` },
          `started ${started.toLocaleTimeString()} · ${run.eventCount} events${run.connected ? '' : ' · reporter gone'}`,
        );
  return h(
    'article',
    { class: `run mode-${mode}`, 'data-run': run.id },
    h(
      'header',
      { class: 'run-head' },
      h('h2', {}, run.label),
      about,
      run.worstCase
        ? h(
            'span',
            {
              class: 'worst-case',
              title: "the loop's certificate: its worst case over every path of its chart",
            },
            run.worstCase,
          )
        : null,
      related.parent
        ? h('span', { class: 'muted' }, 'part of ', link(related.parent, related.parent.label))
        : null,
    ),
    banner,
    chart,
    h(
      'section',
      { class: `panels${main.length === 0 || side.length === 0 ? ' one' : ''}` },
      main.length > 0 ? h('div', { class: 'column main' }, ...main) : null,
      side.length > 0 ? h('div', { class: 'column side' }, ...side) : null,
    ),
  );
}
