/**
 * How late the host's own event loop ran while it waited for a process: the
 * longest delay of a timer due every WATCH_RESOLUTION_MS, read by node's
 * event-loop delay histogram. A message that arrived while the host was
 * starved (descheduled, or busy with other work) is read that much late, so
 * a span the host measures between two messages is longer by up to this
 * much than the span the process saw.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

/** Coarse: the span's margin is tens of ms, and the host's ticks must not disturb the process it waits for. */
const WATCH_RESOLUTION_MS = 20;

export interface LatenessWatch {
  /** Stops watching; the longest lateness seen, ms, the resolution included (a read due just after a tick). */
  stop(): number;
}

export function watchHostLateness(): LatenessWatch {
  const histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: WATCH_RESOLUTION_MS });
  histogram.enable();
  let lateMs: number | undefined;
  return {
    stop() {
      if (lateMs === undefined) {
        histogram.disable();
        // A histogram that recorded nothing reports max 0; its min is then a huge sentinel, not read.
        lateMs = histogram.max / 1e6 + WATCH_RESOLUTION_MS;
      }
      return lateMs;
    },
  };
}
