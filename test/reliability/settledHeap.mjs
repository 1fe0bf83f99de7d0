/**
 * Collects garbage (needs `node --expose-gc`) until `heapUsed` stops shrinking; returns it in bytes.
 * Shared by the child processes of the load and viewer tests.
 */
export async function settledHeap() {
  let last = Number.POSITIVE_INFINITY;
  for (let pass = 0; pass < 10; pass++) {
    // Let pending callbacks and finalizers run between collections.
    await new Promise((resolve) => setImmediate(resolve));
    globalThis.gc();
    const used = process.memoryUsage().heapUsed;
    if (used >= last * 0.999) return Math.min(used, last);
    last = used;
  }
  return last;
}
