import { describe, expect, it } from 'vitest';
import { loopBadge, readable } from '../src/tools/viewer/page/clientKit.js';
import type { RunView } from '../src/tools/viewer/runView.js';

describe('the page kit', () => {
  it.each([
    [
      'The error is correctable ("a\\nb") and 1 retry is left',
      'The error is correctable (“a\nb”) and 1 retry is left',
    ],
    ['said "he said \\"no\\"" twice', 'said “he said "no"” twice'],
    ['cut ("first line\\nsecond, und…) and more', 'cut (“first line\nsecond, und…”) and more'],
    ['no quotes at all', 'no quotes at all'],
  ])('reads %j as %j', (text, shown) => {
    expect(readable(text)).toBe(shown);
  });

  const run = (status: RunView['status'], retryCount: number, maxRetries = 3) =>
    ({ status, retryCount, maxRetries }) as RunView;
  it.each([
    [run('active', 0), 'max 3', false],
    [run('done', 0), 'max 3', false],
    [run('active', 2), '2/3', false],
    [run('done', 3), '3/3', true],
  ])('badges %o as %s', (view, text, atCap) => {
    expect(loopBadge(view)).toEqual({ text, atCap });
  });
  it('gives no badge to a machine without maxRetries', () => {
    expect(loopBadge({ status: 'active' } as RunView)).toBeUndefined();
  });
});
