import { join } from 'node:path';
import { createLoopMachine } from 'loopchart';
import { toMermaid } from 'loopchart/analysis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.js';
import { oddKeysMachine } from './support/oddKeysMachine.js';

const MERMAID = join(process.cwd(), 'node_modules', 'mermaid', 'dist', 'mermaid.min.js');
const steps = { attempt: () => 'x', validate: () => ({ valid: true as const }) };

/** Starting Chromium (and loading Mermaid) can take a while on a busy machine. */
const HOOK_TIMEOUT = 60_000;

let browser: Awaited<ReturnType<typeof launchChromium>>;
let tab: Awaited<ReturnType<typeof browser.page>>;
beforeAll(async () => {
  browser = await launchChromium();
  tab = await browser.page(); // one page, Mermaid (3 MB) loaded once
  await tab.page.setContent('<!doctype html><html><body><div id="out"></div></body></html>');
  await tab.page.addScriptTag({ path: MERMAID });
}, HOOK_TIMEOUT);
afterAll(() => browser?.close(), HOOK_TIMEOUT);

/** Parses and renders `text` with Mermaid's own browser bundle; returns what the SVG shows. */
async function render(text: string, name: string) {
  const { page, errors } = tab;
  const result = await page.evaluate(async (source) => {
    const mermaid = (
      globalThis as unknown as {
        mermaid: {
          initialize(o: object): void;
          parse(t: string): Promise<unknown>;
          render(id: string, t: string): Promise<{ svg: string }>;
        };
      }
    ).mermaid;
    mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });
    const parsed = await mermaid.parse(source);
    const { svg } = await mermaid.render(`diagram${Date.now()}`, source);
    const out = document.getElementById('out') as HTMLElement;
    out.replaceChildren(new DOMParser().parseFromString(svg, 'image/svg+xml').documentElement);
    const texts = (selector: string) =>
      [...out.querySelectorAll(selector)].map((el) => el.textContent?.trim() ?? '');
    const labelBoxes = [...out.querySelectorAll('g.edgeLabel')]
      .filter((el) => el.textContent?.trim())
      .map((el) => {
        const box = el.getBoundingClientRect();
        return {
          text: el.textContent?.trim() ?? '',
          x: box.x,
          y: box.y,
          w: box.width,
          h: box.height,
        };
      });
    const overlapping = labelBoxes.flatMap((a, i) =>
      labelBoxes
        .slice(i + 1)
        .filter((b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h)
        .map((b) => `${a.text} / ${b.text}`),
    );
    return {
      parsed: Boolean(parsed),
      states: texts('g.node'),
      labels: texts('.edgeLabel').filter(Boolean),
      overlapping,
    };
  }, text);
  await browser.screenshot(page, name);
  expect(errors).toEqual([]);
  return result;
}

describe("toMermaid output in Mermaid 11's own parser and renderer (headless Chromium)", () => {
  it('renders the default loop with every state, guard names and ↻ back-edges', async () => {
    const machine = createLoopMachine(steps);
    const { parsed, states, labels, overlapping } = await render(
      toMermaid(machine),
      'mermaid-default-loop',
    );
    expect(parsed).toBe(true);
    expect(overlapping).toEqual([]);
    for (const state of [
      'attempting',
      'validating',
      'routing',
      'refining',
      'failed',
      'proceed',
      'iteration_exhausted',
      'any state',
    ]) {
      expect(states).toContain(state);
    }
    expect(labels).toContain('[hasRetriesLeft]');
    expect(labels).toContain('↻ done.refine');
    const back = new Set(labels.filter((label) => label.startsWith('↻')));
    expect(back).toEqual(
      new Set([
        '↻ done.refine',
        '↻ done.retryDelay [failedInAttempt]',
        '↻ done.retryDelay [failedInRefine]',
        '↻ done.retryDelay',
        '↻',
      ]),
    );
  });

  it('renders a loop with every optional branch, and a machine with odd keys and nesting', async () => {
    const full = createLoopMachine({
      ...steps,
      maxRetries: 5,
      fallback: () => 'f',
      maxCost: 3,
      review: { beforeProceed: true, afterFailedValidation: true },
    });
    const first = await render(toMermaid(full), 'mermaid-full-loop');
    expect(first.overlapping).toEqual([]);
    expect(first.states).toEqual(
      expect.arrayContaining(['fallingBack', 'awaitingReview', 'budget_stop']),
    );
    const odd = oddKeysMachine();
    const second = await render(toMermaid(odd), 'mermaid-odd-keys');
    expect(second.states).toEqual(expect.arrayContaining(['first step', 'any state']));
    expect(second.labels).toContain("go 'quoted' (x) ‹b›");
  });
});
