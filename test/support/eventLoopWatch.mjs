/**
 * Watches this process's event loop for stretches it did not turn for over a second.
 *
 * A tick of a 50 ms timer that comes over a second late means the loop did not turn for that
 * long. It counts as *blocked* only when the main thread itself computed for over a second of
 * that stretch (its CPU time, from /proc/self/task/<pid>/stat; where that is missing, the loop's
 * `eventLoopUtilization().active` time): on a loaded machine a process waits for a CPU, while
 * idle or mid-task, and is late without having been held up by its own work. Each stretch carries
 * `endedAt` (epoch ms), so a caller can leave out a start (loading modules) before it served.
 */
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

const TICK_MS = 50;
export const BLOCKED_MS = 1000;

/** The main thread's CPU time in ms (Linux reports it in 1/100 s), or undefined elsewhere. */
function mainThreadCpuMs() {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** Starts watching; `seen()` is what it saw so far, `stop()` ends it and returns the same. */
export function watchEventLoop(onTick = () => {}) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const found = { ticks: 0, worstLateMs: 0, late: [], blocked: [] };
  let last = performance.now();
  let lastActive = performance.eventLoopUtilization().active;
  let lastCpu = mainThreadCpuMs();
  const timer = setInterval(() => {
    const now = performance.now();
    const active = performance.eventLoopUtilization().active;
    const cpu = mainThreadCpuMs();
    const lateMs = now - last - TICK_MS;
    const activeMs = active - lastActive;
    const cpuMs = cpu === undefined || lastCpu === undefined ? undefined : cpu - lastCpu;
    found.ticks += 1;
    found.worstLateMs = Math.max(found.worstLateMs, Math.round(lateMs));
    if (lateMs > BLOCKED_MS) {
      const stretch = {
        endedAt: Date.now(),
        lateMs: Math.round(lateMs),
        activeMs: Math.round(activeMs),
        cpuMs,
      };
      found.late.push(stretch);
      if ((cpuMs ?? activeMs) > BLOCKED_MS) found.blocked.push(stretch);
    }
    [last, lastActive, lastCpu] = [now, active, cpu];
    onTick();
  }, TICK_MS);
  timer.unref();
  const seen = () => ({
    ...found,
    delay: {
      maxMs: Math.round(histogram.max / 1e6),
      p99Ms: Math.round(histogram.percentile(99) / 1e6),
    },
  });
  return {
    seen,
    stop: () => {
      clearInterval(timer);
      histogram.disable();
      return seen();
    },
  };
}
