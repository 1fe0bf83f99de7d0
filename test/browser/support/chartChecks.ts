import type { Page } from 'playwright-core';

// Each check finds its elements and measures them in one step inside the page (`page.evaluate`),
// so a live redraw between finding and measuring cannot hand it a detached element.

/**
 * For every edge label on the chart: the edge whose route (read back from the drawn `<path>`) lies
 * nearest the label's centre, and how far it and the label's own edge are.
 */
export function labelNeighbours(page: Page) {
  return page.evaluate(() => {
    const svg = document.querySelector('svg.chart');
    if (!svg) throw new Error('no chart on the page');
    const routes = [...svg.querySelectorAll<SVGPathElement>('path.edge')].map((path) => ({
      id: path.getAttribute('data-edge') ?? '',
      points: [...(path.getAttribute('d') ?? '').matchAll(/[ML] (-?[\d.]+) (-?[\d.]+)/g)].map(
        (m) => [Number(m[1]), Number(m[2])] as const,
      ),
    }));
    const distance = (
      [px, py]: readonly [number, number],
      points: ReadonlyArray<readonly [number, number]>,
    ) => {
      let best = Number.POSITIVE_INFINITY;
      for (let i = 1; i < points.length; i += 1) {
        const [ax, ay] = points[i - 1] as readonly [number, number];
        const [bx, by] = points[i] as readonly [number, number];
        const [dx, dy] = [bx - ax, by - ay];
        const length = dx * dx + dy * dy;
        const t = length ? Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / length)) : 0;
        best = Math.min(best, Math.hypot(ax + t * dx - px, ay + t * dy - py));
      }
      return best;
    };
    return [...svg.querySelectorAll<SVGGElement>('g.edge-label')].map((label) => {
      const box = (label.querySelector('rect') as SVGRectElement).getBBox();
      const centre = [box.x + box.width / 2, box.y + box.height / 2] as const;
      const own = label.getAttribute('data-edge') ?? '';
      const ranked = routes
        .map((route) => ({ id: route.id, distance: distance(centre, route.points) }))
        .sort((a, b) => a.distance - b.distance);
      const ownDistance = ranked.find((route) => route.id === own)?.distance;
      const nearestOther = ranked.find((route) => route.id !== own);
      return {
        text: label.textContent ?? '',
        own,
        ownDistance,
        nearestOther: nearestOther?.id,
        otherDistance: nearestOther?.distance ?? Number.POSITIVE_INFINITY,
      };
    });
  });
}

/** The on-screen font size of each state label: its CSS size times the chart's current zoom. */
export function stateLabelSizes(page: Page) {
  return page.locator('svg.chart .state-label').evaluateAll((texts) =>
    texts.map((text) => {
      const matrix = (text as SVGGraphicsElement).getScreenCTM();
      const scale = matrix ? Math.hypot(matrix.a, matrix.b) : 0;
      return {
        state: text.textContent ?? '',
        px: Number.parseFloat(getComputedStyle(text).fontSize) * scale,
      };
    }),
  );
}

/**
 * Whether `element` is fully visible inside every scrolling or clipping box around it (a trace row
 * cut off by its list's scroll box is not), and whether that list needs scrolling at all.
 */
export function clipping(page: Page, selector: string) {
  return page.evaluate((selector) => {
    const node = document.querySelector(selector);
    if (!node) throw new Error(`nothing matches ${selector}`);
    const rect = node.getBoundingClientRect();
    const clippedBy: string[] = [];
    for (let box = node.parentElement; box; box = box.parentElement) {
      const style = getComputedStyle(box);
      if (style.overflowY === 'visible' && style.overflowX === 'visible') continue;
      const outer = box.getBoundingClientRect();
      if (rect.top < outer.top - 0.5 || rect.bottom > outer.bottom + 0.5) {
        clippedBy.push(`${box.tagName.toLowerCase()}.${box.className}`);
      }
    }
    const list = node.closest('ol');
    return {
      clippedBy,
      listScrolls: list ? list.scrollHeight > list.clientHeight + 1 : false,
    };
  }, selector);
}

/** Every panel's heading and how much text it holds below the heading. */
export function panelContents(page: Page) {
  return page.locator('.panel').evaluateAll((panels) =>
    panels.map((panel) => {
      const heading = panel.querySelector('h3')?.textContent ?? '';
      const body = (panel.textContent ?? '').slice(heading.length).trim();
      return { heading, bodyLength: body.length };
    }),
  );
}

/**
 * How the chart on the page frames its run, measured in the page: the path's parts (visited
 * states, taken edges, their labels) not wholly inside the chart's box on screen, pairs of edge
 * labels whose drawn boxes overlap, edge labels over a state box, the smallest text drawn in the
 * chart (its CSS size times the zoom), how far the page overflows the window sideways, and where
 * the chart starts and how tall it is, in windows (the page scrolls down to what is below).
 */
export function chartFit(page: Page) {
  return page.evaluate(() => {
    const svg = document.querySelector('svg.chart');
    if (!svg) throw new Error('no chart on the page');
    const frame = svg.getBoundingClientRect();
    const inside = (box: DOMRect) =>
      box.left >= frame.left - 0.5 &&
      box.right <= frame.right + 0.5 &&
      box.top >= frame.top - 0.5 &&
      box.bottom <= frame.bottom + 0.5;
    const path = [
      ...svg.querySelectorAll(
        '.node.visited:not(.type-compound):not(.type-parallel) > rect:first-of-type',
      ),
      ...svg.querySelectorAll('path.edge.taken'),
      ...svg.querySelectorAll('g.edge-label.taken > rect'),
    ];
    const outOfView = path
      .filter((element) => !inside(element.getBoundingClientRect()))
      .map((element) => {
        const owner = element.closest('[data-state], [data-edge]') ?? element;
        return owner.getAttribute('data-state') ?? owner.getAttribute('data-edge') ?? '';
      });
    const overlap = (a: DOMRect, b: DOMRect) =>
      a.left < b.right - 0.5 &&
      b.left < a.right - 0.5 &&
      a.top < b.bottom - 0.5 &&
      b.top < a.bottom - 0.5;
    const labels = [...svg.querySelectorAll('g.edge-label')].map((label) => ({
      edge: label.getAttribute('data-edge') ?? '',
      box: (label.querySelector('rect') as Element).getBoundingClientRect(),
    }));
    const labelOverlaps = labels.flatMap((a, i) =>
      labels
        .slice(i + 1)
        .filter((b) => overlap(a.box, b.box))
        .map((b) => `${a.edge} / ${b.edge}`),
    );
    const states = [
      ...svg.querySelectorAll(
        '.node:not(.type-compound):not(.type-parallel):not(.type-initial) > rect:first-of-type',
      ),
    ].map((rect) => ({
      state: rect.parentElement?.getAttribute('data-state') ?? '',
      box: rect.getBoundingClientRect(),
    }));
    const labelsOnStates = labels.flatMap((label) =>
      states.filter((s) => overlap(label.box, s.box)).map((s) => `${label.edge} / ${s.state}`),
    );
    let smallestText = Number.POSITIVE_INFINITY;
    for (const text of svg.querySelectorAll('text')) {
      if (!text.textContent?.trim()) continue;
      const matrix = (text as SVGGraphicsElement).getScreenCTM();
      const scale = matrix ? Math.hypot(matrix.a, matrix.b) : 0;
      smallestText = Math.min(
        smallestText,
        Number.parseFloat(getComputedStyle(text).fontSize) * scale,
      );
    }
    return {
      pathParts: path.length,
      outOfView,
      labelOverlaps,
      labelsOnStates,
      smallestText: Math.round(smallestText * 100) / 100,
      overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      chartTop: (frame.top + window.scrollY) / window.innerHeight,
      chartHeight: frame.height / window.innerHeight,
    };
  });
}
