import { expect, it, vi } from 'vitest';

it('examples/agent: a lookup routed single-shot, a comparison planned, paused and resumed without re-planning', async () => {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  const { lookup, paused, resumed, plannerCallsOnResume } = await import(
    '../examples/agent/agent.js'
  );
  const lines = log.mock.calls.map(([line]) => line);
  log.mockRestore();
  expect(lines).toEqual([
    'single-shot (model): proceed, "The standard VAT rate in Spain is 21%."',
    '  why: no rule matched, so the default shape single-shot; the model check answered simple → single-shot',
    'pipeline (heuristic): paused',
    `  why: rule 'compare' matched "Compare" → pipeline; rule 'for-each' matched "for each" → pipeline; rule 'summary-table' matched "summary table" → pipeline`,
    '  planner: 2 model calls; the second prompt said:',
    "    - stage 'acme' has the unknown kind 'scrape' (known kinds: lookup, compare, table)",
    "    - stage 'globex' has the unknown kind 'scrape' (known kinds: lookup, compare, table)",
    '  stages: acme@1:succeeded globex@1:succeeded leaders@2:succeeded summary@3:not_started',
    "  paused: stage 'leaders' succeeded and waits for review",
    'resumed: completed, planner calls: 0',
    '| region | leader | revenue |\n| north | acme | 410 |\n| south | globex | 330 |',
  ]);
  expect(lookup.result?.attempts).toBe(1);
  expect(paused.decision?.model).toBeUndefined();
  expect(resumed.ok).toBe(true);
  expect(plannerCallsOnResume).toBe(0);
  expect(resumed.trace.map((entry) => entry.state)).toEqual(['pipeline']);
});
