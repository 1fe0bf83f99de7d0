/**
 * Collects garbage until `heapUsed` stops shrinking and returns it in bytes. Needs `--expose-gc`.
 * @example const before = await settledHeap(); hold(); const perItem = ((await settledHeap()) - before) / n;
 */
export async function settledHeap(): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('heap figures need node --expose-gc (npm run bench passes it)');
  let last = Number.POSITIVE_INFINITY;
  for (let pass = 0; pass < 10; pass++) {
    // Let finalizers and pending microtasks run between collections.
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    const used = process.memoryUsage().heapUsed;
    if (used >= last * 0.999) return Math.min(used, last);
    last = used;
  }
  return last;
}
