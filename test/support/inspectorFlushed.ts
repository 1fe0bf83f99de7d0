/**
 * Resolves once the Stately inspector has sent every event inspected so far. It converts each
 * event in a `setTimeout(…, 0)` of its own, and timers of one delay fire in the order they were
 * set, so a zero timer set now fires after all of them: a flush, not a wait on the clock.
 * @example actor.stop(); await inspectorFlushed(); expect(sent).toContainEqual(…);
 */
export function inspectorFlushed(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
