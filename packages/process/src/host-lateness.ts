/**
 * How late the host's own event loop ran while it waited for a process: the
 * longest gap past WATCH_RESOLUTION_MS between runs of a timer due every
 * WATCH_RESOLUTION_MS, and, as it stops, the gap since the timer last ran. A
 * message that arrived while the host was starved (descheduled, or busy with
 * other work) is read that much late, so a span the host measures between
 * two messages is longer by up to this much than the span the process saw.
 * The last gap counts because a loop blocked until the answer is read may
 * read it before its late timer runs: node's event-loop delay histogram,
 * which this replaced, records nothing of a block that ends as it is
 * stopped (0 samples after 30 ms and a 150 ms block).
 */

/** Coarse: the span's margin is tens of ms, and the host's ticks must not disturb the process it waits for. */
const WATCH_RESOLUTION_MS = 20;

export interface LatenessWatch {
  /** Stops watching; the longest lateness seen, ms, the resolution included (a read due just after a tick). */
  stop(): number;
}

export function watchHostLateness(): LatenessWatch {
  let lastRunMs = performance.now();
  let longestMs = 0;
  const gap = (): void => {
    const now = performance.now();
    longestMs = Math.max(longestMs, now - lastRunMs - WATCH_RESOLUTION_MS);
    lastRunMs = now;
  };
  const timer = setInterval(gap, WATCH_RESOLUTION_MS);
  // The watch never keeps the host alive.
  timer.unref();
  let lateMs: number | undefined;
  return {
    stop() {
      if (lateMs === undefined) {
        clearInterval(timer);
        gap();
        lateMs = longestMs + WATCH_RESOLUTION_MS;
      }
      return lateMs;
    },
  };
}
