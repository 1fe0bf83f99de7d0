// Browser code, sent to the page as source text: see clientKit.ts.
import type { ChartLayout } from '../ChartLayout.js';
import type { RunView } from '../runView.js';
import type { Kit } from './clientKit.js';

/**
 * Draws a laid-out statechart as SVG, the run's path first: states and edges it took stand out
 * (each edge taken with `×n`), the rest is quiet until "every state" is ticked, the current state
 * pulses while live. Back-edges are dashed and marked ↻; the loop badge sits on the state that
 * refines. Drag to pan, ctrl/⌘ + wheel or the buttons to zoom; the view survives live redraws.
 */
export function drawChart(kit: Kit, layout: ChartLayout, run: RunView | undefined): Element {
  const { h } = kit;
  const key = run?.id ?? layout.machineId;
  const view = kit.views.get(key) ?? { x: 0, y: 0, k: 1, touched: false, all: false };
  kit.views.set(key, view);
  if (view.layout !== layout) {
    view.layout = layout;
    view.touched = false;
  }
  const path = kit.takenPath(layout, run);
  const quiet = !view.all && path.visited.size > 0;
  const live = run?.status === 'active';

  const svg = h('svg:svg', {
    class: 'chart',
    role: 'img',
    'aria-label': `statechart of ${layout.machineId}`,
  }) as SVGSVGElement;
  svg.style.height = `${view.height ?? Math.max(240, Math.min(620, layout.height + 24))}px`;
  svg.append(
    h(
      'svg:defs',
      {},
      ...['arrow', 'arrow-taken'].map((id) =>
        h(
          'svg:marker',
          {
            id,
            viewBox: '0 0 10 10',
            refX: 9,
            refY: 5,
            // Marker sizes scale with the stroke: the 3 px path gets a smaller factor.
            markerWidth: id === 'arrow' ? 7 : 3.6,
            markerHeight: id === 'arrow' ? 7 : 3.6,
            orient: 'auto-start-reverse',
          },
          h('svg:path', { d: 'M 0 0 L 10 5 L 0 10 z', class: id }),
        ),
      ),
    ),
  );

  // Compound boxes go under the edges (edges run inside them), other states over the edges.
  const containers = h('svg:g', { class: 'containers' });
  const nodes = h('svg:g', { class: 'nodes' });
  for (const node of layout.nodes) {
    const reached = path.visited.has(node.id) || node.type === 'initial';
    const classes = [
      'node',
      `type-${node.type}`,
      path.current.has(node.id) ? `current${live ? ' live' : ''}` : '',
      path.visited.has(node.id) ? 'visited' : '',
      quiet && !reached ? 'quiet' : '',
      node.waitsForHuman ? 'human' : '',
    ];
    const group = h('svg:g', { class: classes.filter(Boolean).join(' '), 'data-state': node.id });
    group.append(
      h(
        'svg:title',
        {},
        node.type === 'any' ? 'transitions declared on the machine: from any state' : node.id,
      ),
    );
    if (node.type === 'initial') {
      group.append(
        h('svg:circle', {
          cx: node.x + node.width / 2,
          cy: node.y + node.height / 2,
          r: node.width / 2,
        }),
      );
    } else {
      const compound = node.type === 'compound' || node.type === 'parallel';
      group.append(
        h('svg:rect', { x: node.x, y: node.y, width: node.width, height: node.height, rx: 9 }),
      );
      if (node.type === 'final') {
        group.append(
          h('svg:rect', {
            class: 'inner',
            x: node.x + 3,
            y: node.y + 3,
            width: node.width - 6,
            height: node.height - 6,
            rx: 7,
          }),
        );
      }
      group.append(
        compound
          ? h('svg:text', { x: node.x + 10, y: node.y + 21, class: 'compound-label' }, node.key)
          : h(
              'svg:text',
              {
                x: node.x + node.width / 2,
                y: node.y + node.height / 2 + 4.5,
                'text-anchor': 'middle',
                class: 'state-label',
              },
              node.key,
            ),
      );
    }
    (node.type === 'compound' || node.type === 'parallel' ? containers : nodes).append(group);
  }

  const edges = h('svg:g', { class: 'edges' });
  const labels = h('svg:g', { class: 'edge-labels' });
  for (const edge of layout.edges) {
    if (edge.points.length < 2) continue;
    const count = path.taken.get(edge.id) ?? 0;
    const tone = [
      edge.backEdge ? ' back-edge' : '',
      // Every hop of an unbounded or undecided loop is marked; of a bounded one, its back-edge.
      edge.cycle && (edge.backEdge || edge.cycle === 'unbounded' || edge.cycle === 'cant_tell')
        ? ` cycle-${edge.cycle}`
        : '',
      count > 0 ? ' taken' : '',
      quiet && count === 0 ? ' quiet' : '',
    ].join('');
    const d = edge.points.map(([x, y], i) => `${i === 0 ? 'M' : 'L'} ${x} ${y}`).join(' ');
    edges.append(
      h('svg:path', {
        d,
        class: `edge kind-${edge.kind}${tone}`,
        'marker-end': count > 0 ? 'url(#arrow-taken)' : 'url(#arrow)',
        'data-edge': edge.id,
        'data-source': edge.source,
        'data-target': edge.target,
        'data-count': count,
      }),
    );
    // Each label is drawn inside the box the layout kept for it (room for the count included).
    const box = edge.labelBox;
    if (!box || edge.kind === 'initial') continue;
    const lines = edge.labelLines ?? [edge.label];
    const counted = count > 0 ? `×${count}` : '';
    const widest = Math.max(
      ...lines.map(
        (line, i) => line.length + (i === lines.length - 1 && counted ? counted.length + 1 : 0),
      ),
    );
    const [width, height] = [widest * 7.3 + 8, lines.length * 14 + 4];
    const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
    const text = h('svg:text', { x: cx, y: cy - height / 2 + 13, 'text-anchor': 'middle' });
    lines.forEach((line, i) => {
      const last = i === lines.length - 1;
      text.append(
        h(
          'svg:tspan',
          { x: cx, dy: i === 0 ? 0 : 14 },
          // A space ends each line but the last, so the label reads as one line as text.
          last ? (counted ? `${line} ` : line) : `${line} `,
        ),
      );
      if (last && counted) text.append(h('svg:tspan', { class: 'count' }, counted));
    });
    labels.append(
      h(
        'svg:g',
        { class: `edge-label${tone}`, 'data-edge': edge.id },
        h('svg:rect', { x: cx - width / 2, y: cy - height / 2, width, height, rx: 4 }),
        text,
      ),
    );
  }
  const canvas = h('svg:g', { class: 'canvas' }, containers, edges, nodes, labels);
  svg.append(canvas);

  const badge = kit.loopBadge(run);
  if (badge) {
    const anchor = layout.nodes.find((node) => node.id === layout.loopNode);
    const width = badge.text.length * 8 + 18;
    const x = anchor ? anchor.x + anchor.width - width / 2 : layout.width - width - 4;
    const y = anchor ? anchor.y - 12 : 4;
    canvas.append(
      h(
        'svg:g',
        { class: `loop-badge${badge.atCap ? ' at-cap' : ''}`, 'data-testid': 'loop-badge' },
        h('svg:title', {}, 'refine cycles / maxRetries'),
        h('svg:rect', { x, y, width, height: 22, rx: 11 }),
        h('svg:text', { x: x + width / 2, y: y + 15.5, 'text-anchor': 'middle' }, badge.text),
      ),
    );
  }

  const tools = kit.panZoom(kit, svg, layout, path, view, () => {
    svg.closest('.chart-view')?.replaceWith(kit.drawChart(kit, layout, run));
  });
  // The legend says what the termination check says of each kind of loop the chart has.
  const LOOPS: Record<string, string> = {
    unbounded: '∞ unbounded loop: nothing stops it',
    cant_tell: '? loop the check cannot decide',
    gated: '↻ loop that waits for an outside event each lap',
    bounded: '↻ loop that stops on its own',
    capped: '↻ loop capped by a budget guard',
  };
  const marked = layout.edges.filter(
    (e) => e.backEdge || e.cycle === 'unbounded' || e.cycle === 'cant_tell',
  );
  const loops = [...new Set(marked.map((e) => e.cycle ?? 'back-edge'))].sort(
    (a, b) => Object.keys(LOOPS).indexOf(a) - Object.keys(LOOPS).indexOf(b),
  );
  const legend = h(
    'ul',
    { class: 'legend', 'data-testid': 'legend' },
    h('li', {}, h('span', { class: 'key taken' }), 'taken, ×n times'),
    ...loops.map((verdict) =>
      h(
        'li',
        { 'data-cycle': verdict },
        h('span', { class: `key back cycle-${verdict}` }),
        LOOPS[verdict] ?? '↻ back-edge: closes a loop',
      ),
    ),
    h(
      'li',
      {},
      h('span', { class: 'key current' }),
      live ? 'current state' : run?.status === 'done' ? 'final state' : 'last state',
    ),
    quiet ? h('li', {}, h('span', { class: 'key quiet' }), 'not reached') : null,
    badge
      ? h('li', {}, h('span', { class: 'key badge' }, 'n/max'), 'refine cycles / maxRetries')
      : null,
  );
  return h('div', { class: 'chart-view' }, tools, svg, legend);
}
