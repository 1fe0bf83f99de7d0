// Browser code, sent to the page as source text: see clientKit.ts.
import type { ChartLayout } from '../ChartLayout.js';
import type { RunView } from '../runView.js';
import type { Kit } from './clientKit.js';

/** What the page starts from: live (runs arrive over WebSocket) or a static report's data. */
export type PageBoot =
  | { mode: 'live'; watchPath: string }
  | { mode: 'static'; runs: RunView[]; charts: Record<string, ChartLayout> };

/** The page: the run list, the selected run, and (live) the WebSocket that feeds them. */
export function startPage(kit: Kit, boot: PageBoot): void {
  const { h } = kit;
  const runs = new Map<string, RunView>();
  const charts = new Map<string, ChartLayout>();
  let selected: string | undefined;
  let follow = true;
  const scrolls = new Map<string, { follow: boolean; top: number }>();
  let shownRun: string | undefined;
  const list = document.getElementById('runs') as HTMLElement;
  const panel = document.getElementById('run') as HTMLElement;
  const connection = document.getElementById('connection') as HTMLElement;

  const select = (id: string) => {
    follow = false;
    selected = id;
    invalidate(true, true);
  };
  const childrenOf = (id: string) =>
    [...runs.values()]
      .filter((run) => run.parentId === id)
      .sort((a, b) => a.startedAt - b.startedAt);
  const renderList = () => {
    // Newest first; a run's linked runs (a pipeline's stage loops) right under it, in start order.
    const tops = [...runs.values()]
      .filter((run) => run.parentId === undefined || !runs.has(run.parentId))
      .sort((a, b) => b.startedAt - a.startedAt);
    const items = tops.flatMap((run) => [run, ...childrenOf(run.id)]);
    list.replaceChildren(
      ...items.map((run) => {
        const badge = kit.loopBadge(run);
        const status = (run.output as { status?: unknown } | undefined)?.status;
        const button = h(
          'button',
          { type: 'button', 'aria-current': run.id === selected ? 'true' : undefined },
          h('span', { class: 'label' }, run.label),
          h(
            'span',
            { class: `state state-${run.status}` },
            typeof status === 'string' ? status : run.status,
          ),
          badge
            ? h('span', { class: `mini-badge${badge.atCap ? ' at-cap' : ''}` }, badge.text)
            : null,
        );
        button.addEventListener('click', () => select(run.id));
        const linked = run.parentId !== undefined && runs.has(run.parentId);
        return h('li', { 'data-run': run.id, class: linked ? 'linked' : undefined }, button);
      }),
    );
    if (items.length === 0) {
      list.append(
        h(
          'li',
          { class: 'muted' },
          boot.mode === 'live' ? `No runs yet. Report to ws://${location.host}/` : 'No run.',
        ),
      );
    }
  };
  const renderRun = () => {
    const run = selected === undefined ? undefined : runs.get(selected);
    if (!run) {
      panel.replaceChildren(h('p', { class: 'muted' }, 'Select a run.'));
      return;
    }
    const layout = run.chartId === undefined ? undefined : charts.get(run.chartId);
    // Live lists follow their newest row unless the user scrolled up: then they stay put and
    // offer a button back to the newest.
    if (shownRun !== run.id) scrolls.clear();
    shownRun = run.id;
    for (const box of panel.querySelectorAll<HTMLElement>('[data-scroll]')) {
      const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 4;
      scrolls.set(box.dataset.scroll ?? '', { follow: atEnd, top: box.scrollTop });
    }
    const parent = run.parentId === undefined ? undefined : runs.get(run.parentId);
    const related = { parent, children: childrenOf(run.id), select };
    panel.replaceChildren(kit.drawRun(kit, run, layout, boot.mode, related));
    if (boot.mode === 'static') return;
    for (const box of panel.querySelectorAll<HTMLElement>('[data-scroll]')) {
      const was = scrolls.get(box.dataset.scroll ?? '') ?? { follow: true, top: 0 };
      box.scrollTop = was.follow ? box.scrollHeight : was.top;
      const resume = h(
        'button',
        { type: 'button', class: 'resume', 'data-testid': `resume-${box.dataset.scroll}` },
        '↓ newest (paused while you read)',
      ) as HTMLElement;
      const update = () => {
        resume.hidden = box.scrollTop + box.clientHeight >= box.scrollHeight - 4;
      };
      resume.addEventListener('click', () => {
        box.scrollTop = box.scrollHeight;
        update();
      });
      box.addEventListener('scroll', update, { passive: true });
      update();
      box.after(resume);
    }
  };
  // Messages can arrive far faster than a screen refreshes: draw at most once per frame, and only
  // what changed (the list, the selected run's panel).
  let listChanged = false;
  let runChanged = false;
  let frame = false;
  const draw = () => {
    frame = false;
    if (listChanged) renderList();
    if (runChanged) renderRun();
    listChanged = false;
    runChanged = false;
  };
  const invalidate = (list: boolean, run: boolean) => {
    listChanged ||= list;
    runChanged ||= run;
    if (frame) return;
    frame = true;
    requestAnimationFrame(draw);
  };
  const upsert = (run: RunView) => {
    const isNew = !runs.has(run.id);
    runs.set(run.id, run);
    // Following, the newest top-level run is shown (a pipeline, not each stage loop it starts).
    const select = selected === undefined || (follow && isNew && run.parentId === undefined);
    if (select) selected = run.id;
    invalidate(true, select || run.id === selected || run.parentId === selected);
  };

  invalidate(true, true);
  if (boot.mode === 'static') {
    for (const [id, layout] of Object.entries(boot.charts)) charts.set(id, layout);
    for (const run of boot.runs) upsert(run);
    connection.textContent = 'static report';
    return;
  }

  let delay = 500;
  const connect = () => {
    const socket = new WebSocket(
      `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${boot.watchPath}`,
    );
    socket.addEventListener('open', () => {
      delay = 500;
      connection.textContent = 'live';
      connection.className = 'live';
      // The server now sends every run and chart it holds: forget what it dropped while we were away.
      runs.clear();
      charts.clear();
      if (follow) selected = undefined;
      invalidate(true, true);
    });
    socket.addEventListener('message', (message) => {
      let data: { type?: unknown; id?: unknown; layout?: ChartLayout; run?: RunView };
      try {
        data = JSON.parse(String(message.data));
      } catch {
        return;
      }
      if (data.type === 'chart' && typeof data.id === 'string' && data.layout) {
        charts.set(data.id, data.layout);
        invalidate(false, selected !== undefined && runs.get(selected)?.chartId === data.id);
      } else if (data.type === 'run' && data.run) upsert(data.run);
      else if (data.type === 'removed' && typeof data.id === 'string') {
        runs.delete(data.id);
        kit.views.delete(data.id);
        const wasSelected = selected === data.id;
        if (wasSelected) selected = undefined;
        invalidate(true, wasSelected);
      }
    });
    socket.addEventListener('close', () => {
      connection.textContent = 'disconnected, retrying…';
      connection.className = 'down';
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 5000);
    });
  };
  connect();
}
