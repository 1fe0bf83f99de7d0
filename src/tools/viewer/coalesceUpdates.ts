/** How often, at most, a run's view is sent to watching pages while it keeps changing. */
export const UPDATE_INTERVAL_MS = 100;

interface Window {
  timer: ReturnType<typeof setTimeout>;
  dirty: boolean;
}

/** What `coalesceUpdates` returns: report changes, forget runs, stop the timers. */
export interface CoalescedUpdates {
  /** A run changed; `status` is its status now (a change of status is sent at once). */
  changed(runId: string, status: string): void;
  /** The run is gone: nothing more is sent for it. */
  forget(runId: string): void;
  /** Clears every timer; nothing pending or later is sent. */
  stop(): void;
}

/**
 * Sends each run's latest view at most once per `intervalMs` while it keeps changing: the first
 * change goes out at once, later ones within the window are folded into one send at its end
 * (`send` reads the run's view then, so the latest wins). A change of status (the run ended) is
 * sent at once.
 * @example const updates = coalesceUpdates((id) => publish(id)); updates.changed(run.id, run.status);
 */
export function coalesceUpdates(
  send: (runId: string) => void,
  intervalMs = UPDATE_INTERVAL_MS,
): CoalescedUpdates {
  const windows = new Map<string, Window>();
  const sentStatus = new Map<string, string>();
  let stopped = false;

  const open = (runId: string) => {
    const timer = setTimeout(() => {
      const window = windows.get(runId);
      windows.delete(runId);
      if (!window?.dirty) return;
      send(runId);
      open(runId);
    }, intervalMs);
    windows.set(runId, { timer, dirty: false });
  };
  const close = (runId: string) => {
    clearTimeout(windows.get(runId)?.timer);
    windows.delete(runId);
  };

  return {
    changed(runId, status) {
      if (stopped) return;
      const window = windows.get(runId);
      if (window && sentStatus.get(runId) === status) {
        window.dirty = true;
        return;
      }
      close(runId);
      sentStatus.set(runId, status);
      send(runId);
      open(runId);
    },
    forget(runId) {
      close(runId);
      sentStatus.delete(runId);
    },
    stop() {
      stopped = true;
      for (const runId of [...windows.keys()]) close(runId);
    },
  };
}
