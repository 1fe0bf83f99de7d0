// Browser code, sent to the page as source text: see clientKit.ts.
import type { ChartLayout } from '../ChartLayout.js';
import type { RunView } from '../runView.js';
import type { Kit } from './clientKit.js';

/**
 * Draws a laid-out statechart as SVG: back-edges dashed and marked ↻, the run's current state
 * highlighted, states its trace visited tinted, and the loop badge on the state that refines.
 */
export function drawChart(kit: Kit, layout: ChartLayout, run: RunView | undefined): Element {
  const { h } = kit;
  const active = new Set<string>();
  const addActive = (value: unknown, prefix: string[]) => {
    if (typeof value === 'string') active.add([...prefix, value].join('.'));
    else if (typeof value === 'object' && value !== null && prefix.length < 16) {
      for (const [key, inner] of Object.entries(value)) {
        active.add([...prefix, key].join('.'));
        addActive(inner, [...prefix, key]);
      }
    }
  };
  addActive(run?.value, []);
  const visited = new Set<string>();
  for (const entry of run?.trace ?? []) {
    const state = (entry as { state?: unknown } | null)?.state;
    if (typeof state === 'string') visited.add(state);
  }

  const svg = h('svg:svg', {
    class: 'chart',
    viewBox: `0 0 ${layout.width} ${layout.height}`,
    width: layout.width,
    height: layout.height,
    role: 'img',
    'aria-label': `statechart of ${layout.machineId}`,
  });
  svg.append(
    h(
      'svg:defs',
      {},
      h(
        'svg:marker',
        {
          id: 'arrow',
          viewBox: '0 0 10 10',
          refX: 9,
          refY: 5,
          markerWidth: 7,
          markerHeight: 7,
          orient: 'auto-start-reverse',
        },
        h('svg:path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'arrow-head' }),
      ),
    ),
  );

  const nodes = h('svg:g', { class: 'nodes' });
  for (const node of layout.nodes) {
    const path = node.path.join('.');
    const classes = [
      'node',
      `type-${node.type}`,
      active.has(path) ? 'current' : '',
      visited.has(node.key) && node.path.length === 1 ? 'visited' : '',
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
      const label = node.key;
      group.append(
        compound
          ? h('svg:text', { x: node.x + 10, y: node.y + 20, class: 'compound-label' }, label)
          : h(
              'svg:text',
              {
                x: node.x + node.width / 2,
                y: node.y + node.height / 2 + 4,
                'text-anchor': 'middle',
              },
              label,
            ),
      );
    }
    nodes.append(group);
  }

  const edges = h('svg:g', { class: 'edges' });
  const labels = h('svg:g', { class: 'edge-labels' });
  for (const edge of layout.edges) {
    if (edge.points.length < 2) continue;
    const d = edge.points.map(([x, y], i) => `${i === 0 ? 'M' : 'L'} ${x} ${y}`).join(' ');
    edges.append(
      h('svg:path', {
        d,
        class: `edge kind-${edge.kind}${edge.backEdge ? ' back-edge' : ''}`,
        'stroke-dasharray': edge.backEdge ? '6 4' : undefined,
        'marker-end': 'url(#arrow)',
        'data-edge': edge.id,
        'data-source': edge.source,
        'data-target': edge.target,
      }),
    );
    const box = edge.labelBox;
    if (box && edge.label) {
      labels.append(
        h(
          'svg:g',
          { class: `edge-label${edge.backEdge ? ' back-edge' : ''}`, 'data-edge': edge.id },
          h('svg:rect', {
            x: box.x - 2,
            y: box.y - 1,
            width: box.width + 4,
            height: box.height + 2,
            rx: 3,
          }),
          h('svg:text', { x: box.x + 2, y: box.y + box.height - 4 }, edge.label),
        ),
      );
    }
  }
  svg.append(edges, nodes, labels);

  const badge = kit.loopBadge(run);
  if (badge) {
    const anchor = layout.nodes.find((node) => node.id === layout.loopNode);
    const width = badge.text.length * 8 + 16;
    const x = anchor ? anchor.x + anchor.width - width / 2 : layout.width - width - 4;
    const y = anchor ? anchor.y - 11 : 4;
    svg.append(
      h(
        'svg:g',
        { class: `loop-badge${badge.atCap ? ' at-cap' : ''}`, 'data-testid': 'loop-badge' },
        h('svg:title', {}, 'refine cycles / maxRetries'),
        h('svg:rect', { x, y, width, height: 20, rx: 10 }),
        h('svg:text', { x: x + width / 2, y: y + 14, 'text-anchor': 'middle' }, badge.text),
      ),
    );
  }
  return svg;
}
