/** A stretch the event loop did not turn for over a second. */
export interface LateStretch {
  endedAt: number;
  lateMs: number;
  activeMs: number;
  /** The main thread's own CPU time over the stretch (Linux only). */
  cpuMs?: number;
}

/** What `watchEventLoop` saw. */
export interface LoopSeen {
  ticks: number;
  worstLateMs: number;
  late: LateStretch[];
  /** The late stretches the process's own work held the loop for over a second. */
  blocked: LateStretch[];
  delay: { maxMs: number; p99Ms: number };
}

export declare const BLOCKED_MS: number;
export declare function watchEventLoop(onTick?: () => void): {
  seen(): LoopSeen;
  stop(): LoopSeen;
};
