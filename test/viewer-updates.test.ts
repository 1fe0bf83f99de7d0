import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { coalesceUpdates, UPDATE_INTERVAL_MS } from '../src/tools/viewer/coalesceUpdates.js';

describe('coalesceUpdates: what the viewer sends its pages while runs change', () => {
  let sent: string[];
  beforeEach(() => {
    vi.useFakeTimers();
    sent = [];
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const updates = () => coalesceUpdates((runId) => sent.push(runId));

  it('sends the first change at once and folds the rest of the window into one send at its end', () => {
    const runs = updates();
    runs.changed('a', 'active');
    expect(sent).toEqual(['a']);
    for (let i = 0; i < 50; i += 1) runs.changed('a', 'active');
    expect(sent).toEqual(['a']);
    vi.advanceTimersByTime(UPDATE_INTERVAL_MS);
    expect(sent).toEqual(['a', 'a']);
    // that send opened a new window; a quiet one closes without sending
    vi.advanceTimersByTime(UPDATE_INTERVAL_MS);
    expect(sent).toEqual(['a', 'a']);
    runs.changed('a', 'active');
    expect(sent).toEqual(['a', 'a', 'a']);
    runs.stop();
  });

  it('keeps a window per run: one busy run does not delay another', () => {
    const runs = updates();
    runs.changed('a', 'active');
    runs.changed('a', 'active');
    runs.changed('b', 'active');
    expect(sent).toEqual(['a', 'b']);
    vi.advanceTimersByTime(UPDATE_INTERVAL_MS);
    expect(sent).toEqual(['a', 'b', 'a']);
    runs.stop();
  });

  it('sends a change of status at once, even inside a window (a run that ends is flushed)', () => {
    const runs = updates();
    runs.changed('a', 'active');
    runs.changed('a', 'active');
    runs.changed('a', 'done');
    expect(sent).toEqual(['a', 'a']);
    vi.advanceTimersByTime(UPDATE_INTERVAL_MS);
    expect(sent).toEqual(['a', 'a']); // nothing changed since the flush
    runs.stop();
  });

  it('sends nothing more for a forgotten run, and nothing at all once stopped, with no timer left', () => {
    const runs = updates();
    runs.changed('a', 'active');
    runs.changed('a', 'active');
    runs.forget('a');
    runs.changed('b', 'active');
    runs.changed('b', 'active');
    runs.stop();
    runs.changed('c', 'active');
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(10 * UPDATE_INTERVAL_MS);
    expect(sent).toEqual(['a', 'b']);
  });
});
