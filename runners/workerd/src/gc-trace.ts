/**
 * workerd's GC figures, read on the host. Inside the isolate heap statistics
 * read as zeros, so the plugin adds V8's `--trace-gc-nvp` to the config's
 * v8Flags: one line per collection on workerd's stdout,
 *   [pid:0xisolate:0]   1502 ms: GC: {"pause":4.7,"gc":"s",…,"allocated":1525828,…}
 * (V8 ≥ 15 prints the name=value list as JSON). The worker prints the phase
 * markers with console.log, which lands in the same stdout in order.
 */
import type { EngineMetrics, GcKindCounts } from '@rtbench/core/engine-metrics';
import type { TraceParser } from '@rtbench/process';

/** The V8 flag the plugin adds; a variant that says `--no-trace-gc-nvp` opts out. */
export const GC_TRACE_FLAG = '--trace-gc-nvp';
export const GC_TRACE_OPT_OUT = '--no-trace-gc-nvp';

/** Any line V8 prints with its isolate prefix: "[pid:0xaddr(:id)]   123 ms: …". */
const V8_TRACE_LINE = /^\[\d+:0x[0-9a-f]+(?::\d+)?\]\s+[\d.]+ ms: (.*)$/;
/** The tail of V8's "Memory pool: …" line, which it breaks with a newline of its own. */
const POOL_CONTINUATION = /^, removed zone reservations: \d+$/;

export interface NvpEvent {
  gc: string;
  pause?: number;
  allocated?: number;
  new_space_capacity?: number;
  end_object_size?: number;
  end_memory_size?: number;
  old_gen_allocation_limit?: number;
  end_old_gen_consumed_size?: number;
  incremental?: number;
  incremental_steps_count?: number;
}

/** V8's short names in the nvp "gc" field: s = scavenge, mms/mmc = minor mark-sweep/compact, mc/ms = mark-compact. */
export function nvpKind(gc: string): 'minor' | 'major' | 'other' {
  if (gc === 's' || gc.startsWith('mm') || gc.startsWith('minor')) return 'minor';
  if (gc === 'mc' || gc === 'ms') return 'major';
  return 'other';
}

export function parseNvpLine(line: string): NvpEvent | undefined | 'other-trace' {
  const m = V8_TRACE_LINE.exec(line);
  if (!m) return POOL_CONTINUATION.test(line) ? 'other-trace' : undefined;
  const body = m[1]!;
  if (!body.startsWith('GC: {')) return 'other-trace';
  try {
    const event = JSON.parse(body.slice('GC: '.length)) as NvpEvent;
    return typeof event.gc === 'string' ? event : 'other-trace';
  } catch {
    return 'other-trace';
  }
}

export class V8NvpTrace implements TraceParser {
  private readonly events: NvpEvent[] = [];
  private lastBeforeSampling: NvpEvent | undefined;

  line(text: string, phase: 'before' | 'sampling' | 'after'): boolean {
    const event = parseNvpLine(text);
    if (event === undefined) return false;
    if (event === 'other-trace') return true;
    if (phase === 'sampling') this.events.push(event);
    else if (phase === 'before') this.lastBeforeSampling = event;
    return true;
  }

  metrics(): EngineMetrics {
    const kind = (k: 'minor' | 'major' | 'other'): GcKindCounts => {
      const of = this.events.filter((e) => nvpKind(e.gc) === k);
      return { count: of.length, timeMs: of.reduce((sum, e) => sum + (e.pause ?? 0), 0) };
    };
    const majors = this.events.filter((e) => nvpKind(e.gc) === 'major');
    const incremental: GcKindCounts = {
      count: majors.reduce((sum, e) => sum + (e.incremental_steps_count ?? 0), 0),
      timeMs: majors.reduce((sum, e) => sum + (e.incremental ?? 0), 0),
    };
    const metrics: EngineMetrics = {
      source: `V8 ${GC_TRACE_FLAG}`,
      gc: { minor: kind('minor'), major: kind('major'), incremental, other: kind('other') },
    };
    const unavailable: Record<string, string> = {};
    if (this.events.length) {
      metrics.allocation = {
        bytes: this.events.reduce((sum, e) => sum + (e.allocated ?? 0), 0),
        method: "sum of each GC's 'allocated' during sampling (V8 --trace-gc-nvp); off by up to one GC cycle at each end",
        estimate: true,
      };
    } else unavailable.allocation = 'no GC during sampling: V8 reports allocation only at a GC';
    // The heap as the last GC left it (a GC before sampling if none ran during it).
    const last = this.events[this.events.length - 1] ?? this.lastBeforeSampling;
    if (last) {
      const capacities = this.events.map((e) => e.new_space_capacity).filter((c): c is number => c !== undefined);
      metrics.heap = {
        ...(last.new_space_capacity !== undefined ? { youngSizeBytes: last.new_space_capacity } : {}),
        ...(capacities.length ? { youngPeakSizeBytes: Math.max(...capacities) } : {}),
        ...(last.end_old_gen_consumed_size !== undefined ? { oldUsedBytes: last.end_old_gen_consumed_size } : {}),
        ...(last.old_gen_allocation_limit !== undefined ? { oldLimitBytes: last.old_gen_allocation_limit } : {}),
        ...(last.end_memory_size !== undefined ? { heapSizeBytes: last.end_memory_size } : {}),
        ...(last.end_object_size !== undefined ? { heapUsedBytes: last.end_object_size } : {}),
      };
    } else unavailable.heap = 'no GC yet: V8 reports the heap only at a GC';
    if (Object.keys(unavailable).length) metrics.unavailable = unavailable;
    return metrics;
  }
}
