// Browser code, sent to the page as source text: see clientKit.ts.
import type { ChartLayout } from '../ChartLayout.js';
import type { ChartView, Kit } from './clientKit.js';
import type { TakenPath } from './takenPath.js';

/**
 * Makes a drawn chart pannable and zoomable through its `viewBox`: drag to pan, ctrl/⌘ + wheel or
 * the buttons to zoom, *Fit* to frame the path again, *every state* to draw (and frame) it all.
 * Until the user moves it, the view frames the run's path whole at a zoom of at least 11/12, so
 * 12 px edge labels stay 11 px or more on screen: the rest of the chart is there to pan to (also
 * with *every state*, which draws it in full colour). Returns the toolbar.
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
  /** The smallest zoom at which the 12 px edge labels are 11 px on screen. */
  const readable = 11 / 12;
  const pad = 12;
  /** What the view frames: the run's path whole (its states, edges and labels), else the chart. */
  const target = () => {
    const box = { x0: Number.POSITIVE_INFINITY, y0: Number.POSITIVE_INFINITY, x1: 0, y1: 0 };
    const add = (x: number, y: number, w = 0, h = 0) => {
      box.x0 = Math.min(box.x0, x - pad);
      box.y0 = Math.min(box.y0, y - pad);
      box.x1 = Math.max(box.x1, x + w + pad);
      box.y1 = Math.max(box.y1, y + h + pad);
    };
    const containers = new Set(['compound', 'parallel']);
    for (const node of layout.nodes) {
      const onPath = path.visited.size === 0 || path.visited.has(node.id);
      if (onPath && !containers.has(node.type)) add(node.x, node.y, node.width, node.height);
    }
    for (const edge of layout.edges) {
      if (!path.taken.has(edge.id)) continue;
      for (const [x, y] of edge.points) add(x, y);
      const label = edge.labelBox;
      if (label) add(label.x, label.y, label.width, label.height);
    }
    if (box.x1 === 0) add(0, 0, layout.width, layout.height);
    return box;
  };
  /**
   * Frames the path: as large as fits (at most 1.15), never below the readable zoom; the chart is
   * as tall as the path needs at that zoom, within the window. Returns false when it had to change
   * the chart's height first (the size observer calls again once the new height is laid out).
   */
  const frame = () => {
    const width = svg.clientWidth || 1;
    const box = target();
    const [w, h] = [box.x1 - box.x0, box.y1 - box.y0];
    // On screen below the chart's top if the path fits there at a readable zoom; else just as tall
    // as the path needs at that zoom (up to three windows: a pipeline's layers), the page scrolls.
    const top = svg.getBoundingClientRect().top + window.scrollY;
    const zoomFor = (room: number) => Math.min(1.15, width / w, room / h);
    const visible = Math.max(240, window.innerHeight - top - 8);
    const tallest =
      zoomFor(visible) >= readable ? visible : Math.min(h * readable, 3 * window.innerHeight);
    view.k = Math.max(readable, zoomFor(tallest));
    const wanted = Math.round(Math.max(240, Math.min(tallest, h * view.k)));
    if (Math.abs(wanted - svg.clientHeight) > 1) {
      view.height = wanted;
      requestAnimationFrame(() => {
        svg.style.height = `${wanted}px`;
      });
      return false;
    }
    const height = svg.clientHeight || 1;
    view.x = (box.x0 + box.x1) / 2 - width / view.k / 2;
    view.y = h * view.k > height ? box.y0 : (box.y0 + box.y1) / 2 - height / view.k / 2;
    // A path wider than the view even at the readable zoom: keep its start and current state in sight.
    if (w * view.k > width) view.x = box.x0;
    const now = layout.nodes.find((node) => path.current.has(node.id) && node.type !== 'compound');
    if (now) {
      const right = view.x + width / view.k;
      if (now.x + now.width + pad > right) view.x += now.x + now.width + pad - right;
      const bottom = view.y + height / view.k;
      if (now.y + now.height + pad > bottom) view.y += now.y + now.height + pad - bottom;
    }
    return true;
  };
  /** Frames the path unless the user moved the view; `data-framed` tells when it is framed. */
  const refit = () => {
    const framed = !view.touched && frame();
    if (framed || view.touched) apply();
    svg.toggleAttribute('data-framed', framed);
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
    refit();
  };
  const observer = new ResizeObserver(() => {
    if (!svg.isConnected) {
      observer.disconnect();
      return;
    }
    refit();
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
    refit();
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
    redraw();
  });
  return h(
    'div',
    { class: 'chart-tools' },
    button('−', 'zoom out', () => zoom(1 / 1.25)),
    button('+', 'zoom in', () => zoom(1.25)),
    button('Fit', 'frame the path the run took', () => {
      view.touched = false;
      refit();
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
