import { expect, it, vi } from 'vitest';

it('the human-review example pauses for a question and a review, and sends the edited reply', async () => {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  await import('../examples/human-review/human-review.js');
  const lines = log.mock.calls.map((call) => String(call[0]));
  log.mockRestore();
  expect(lines).toEqual([
    'paused, asks: Which order should be refunded? (A-1042 or A-1077)',
    'paused for review (beforeProceed): "Dear Ada, your refund for order A-1042 is on its way."',
    'paused for review (beforeProceed): "Dear Ada, your refund for order A-1042 (EUR 59.90) is on its way."',
    expect.stringMatching(/^proceed: /),
    'sent: Dear Ada, your refund for order A-1042 (EUR 59.90) is on its way.',
  ]);
});
