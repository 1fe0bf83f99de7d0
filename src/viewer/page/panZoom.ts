// Browser code, sent to the page as source text: see clientKit.ts.
import type { ChartLayout } from '../ChartLayout.js';
import type { ChartView, Kit } from './clientKit.js';
import type { TakenPath } from './takenPath.js';

/**
 * Makes a drawn chart pannable and zoomable through its `viewBox`: drag to pan, ctrl/⌘ + wheel or
 * the buttons to zoom, *Fit* to frame the path again, *every state* to draw (and frame) it all.
 * Until the user moves it, the view frames the run's path at a zoom of at least 11/12, so 12 px
 * edge labels stay 11 px or more on screen. Returns the toolbar.
 */
export function panZoom(
  kit: Kit,
  svg: SVGSVGElement,
  layout: ChartLayout,
  path: TakenPath,
  view: ChartView,
  redraw: () => void,
): Element {
  const { h } = kit;
  // The view: (x, y) is the chart point at the top-left corner, k the zoom.
  const apply = () => {
    const width = svg.clientWidth || 1;
    const height = svg.clientHeight || 1;
    svg.setAttribute('viewBox', `${view.x} ${view.y} ${width / view.k} ${height / view.k}`);
  };
  const frame = () => {
    const width = svg.clientWidth || 1;
    const height = svg.clientHeight || 1;
    const shown = layout.nodes.filter(
      (node) =>
        view.all ||
        path.visited.size === 0 ||
        path.visited.has(node.id) ||
        node.id === `${layout.machineId}#initial`,
    );
    const pad = 28;
    const box = shown.reduce(
      (b, node) => ({
        x0: Math.min(b.x0, node.x - pad),
        y0: Math.min(b.y0, node.y - pad),
        x1: Math.max(b.x1, node.x + node.width + pad),
        y1: Math.max(b.y1, node.y + node.height + pad),
      }),
      { x0: Number.POSITIVE_INFINITY, y0: Number.POSITIVE_INFINITY, x1: 0, y1: 0 },
    );
    const fit = Math.min(width / (box.x1 - box.x0), height / (box.y1 - box.y0));
    // The path opens at a zoom that keeps 12 px edge labels at least 11 px on screen.
    view.k = Math.min(1.15, view.all ? fit : Math.max(11 / 12, fit));
    view.x = (box.x0 + box.x1) / 2 - width / view.k / 2;
    view.y = fit < view.k ? box.y0 : (box.y0 + box.y1) / 2 - height / view.k / 2;
    // A path too large for the view at this zoom: keep the current state in sight.
    const now = layout.nodes.find((node) => path.current.has(node.id) && node.type !== 'compound');
    if (now) {
      const right = view.x + width / view.k;
      if (now.x + now.width + pad > right) view.x += now.x + now.width + pad - right;
      if (now.x - pad < view.x) view.x = now.x - pad;
      const bottom = view.y + height / view.k;
      if (now.y + now.height + pad > bottom) view.y += now.y + now.height + pad - bottom;
    }
  };
  const zoom = (factor: number, at?: [number, number]) => {
    const width = svg.clientWidth || 1;
    const height = svg.clientHeight || 1;
    const [px, py] = at ?? [width / 2, height / 2];
    const k = Math.max(0.1, Math.min(4, view.k * factor));
    view.x += px / view.k - px / k;
    view.y += py / view.k - py / k;
    view.k = k;
    view.touched = true;
    apply();
  };
  const observer = new ResizeObserver(() => {
    if (!svg.isConnected) {
      observer.disconnect();
      return;
    }
    if (!view.touched) frame();
    apply();
  });
  observer.observe(svg);

  let drag: { x: number; y: number } | undefined;
  svg.addEventListener('pointerdown', (event) => {
    drag = { x: event.clientX, y: event.clientY };
    svg.setPointerCapture(event.pointerId);
  });
  svg.addEventListener('pointermove', (event) => {
    if (!drag) return;
    view.x -= (event.clientX - drag.x) / view.k;
    view.y -= (event.clientY - drag.y) / view.k;
    drag = { x: event.clientX, y: event.clientY };
    view.touched = true;
    apply();
  });
  svg.addEventListener('pointerup', () => {
    drag = undefined;
  });
  svg.addEventListener(
    'wheel',
    (event) => {
      if (!event.ctrlKey && !event.metaKey) return;
      event.preventDefault();
      const rect = svg.getBoundingClientRect();
      zoom(Math.exp(-event.deltaY / 300), [event.clientX - rect.left, event.clientY - rect.top]);
    },
    { passive: false },
  );

  const button = (label: string, title: string, action: () => void) => {
    const element = h('button', { type: 'button', title }, label);
    element.addEventListener('click', action);
    return element;
  };
  const all = h('input', { type: 'checkbox', 'data-testid': 'show-all' }) as HTMLInputElement;
  all.checked = view.all;
  all.addEventListener('change', () => {
    view.all = all.checked;
    view.touched = false;
    redraw();
  });
  return h(
    'div',
    { class: 'chart-tools' },
    button('−', 'zoom out', () => zoom(1 / 1.25)),
    button('+', 'zoom in', () => zoom(1.25)),
    button('Fit', 'frame the path (or every state)', () => {
      view.touched = false;
      frame();
      apply();
    }),
    h(
      'label',
      { title: 'draw the states and transitions the run did not reach in full colour' },
      all,
      ' every state',
    ),
    h('span', { class: 'muted hint' }, 'drag to pan · ctrl/⌘ + wheel to zoom'),
  );
}
