import { expect, it, vi } from 'vitest';

it('examples/pipeline answers the question: two refines, a checkpoint, a summary', async () => {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  const { paused, answer, timeline } = await import('../examples/pipeline/pipeline.js');
  const lines = log.mock.calls.map(([line]) => line);
  log.mockRestore();
  expect(lines).toEqual([
    "paused: stage 'ledger' succeeded and waits for review",
    '  INV-301 acme: paid 2 times, 1200',
    '  INV-303 initech: paid 2 times, 450',
    'completed: Acme Corp and Initech paid a March invoice twice. Refund 1650 in total.',
    '  find: succeeded (proceed), layer 1, 2 attempt(s), 1 refine(s)',
    '  crm: succeeded (proceed), layer 2, 1 attempt(s), 0 refine(s)',
    '  ledger: succeeded (proceed), layer 2, 1 attempt(s), 0 refine(s)',
    '  summary: succeeded (proceed), layer 3, 2 attempt(s), 1 refine(s)',
    '  timeline: +find -find proceed +crm +ledger -crm proceed -ledger proceed +summary -summary proceed',
  ]);
  expect(paused.status === 'paused' && paused.pause.reason).toBe('checkpoint');
  expect(paused.stages.summary?.status).toBe('not_started');
  expect(answer.status === 'completed' && answer.ok).toBe(true);
  // The resumed run started only the summary: the finished stages were not run again.
  expect(timeline.filter((entry) => entry.startsWith('+'))).toEqual([
    '+find',
    '+crm',
    '+ledger',
    '+summary',
  ]);
});
