/**
 * Bun's GC figures, read on the host. JavaScriptCore has no API for counting
 * collections, but it logs each one to stderr under BUN_JSC_logGC=1:
 *
 *   [GC<0x…>: START M 9054kb => EdenCollection, … p=5.53ms (max …), cycle …ms END]
 *
 * A collection starts with "START <who> <heap>kb => <Eden|Full>Collection";
 * a concurrent one resumes the mutator and pauses it again on later lines
 * ("[GC<0x…>: M a=…", each with its own p=<pause>ms), and its last line ends
 * "=> <heap after>kb, p=…ms …, cycle …ms END]". The entry writes the phase
 * markers to stderr too, with the heap in use (process.memoryUsage().heapUsed).
 */
import type { EngineMetrics, GcKindCounts } from '@rtbench/core/engine-metrics';
import type { TraceParser } from '@rtbench/process';

// The log's switch, and when it is on, sit beside the in-runtime probe that marks the log.
import { GC_LOG_ENV } from './gc-probe.ts';

const START = /^\[GC<0x[0-9a-f]+>: START \w+ (\d+)kb => (\w+?)Collection\b/;
const RESUMED = /^\[GC<0x[0-9a-f]+>: \w+ a=/;
const PAUSE = /\bp=([\d.]+)ms/;
const END = /=> (\d+)kb, p=[\d.]+ms.*END\]$/;
/** Other lines logGC prints: per-phase notes, and the reason a GC was requested. */
const OTHER = /^(\[GC<0x[0-9a-f]+>: |GC END!$|Requesting GC because )/;

interface Collection {
  kind: 'minor' | 'major';
  firstPauseMs: number;
  stepPausesMs: number[];
  beforeKb: number;
  afterKb?: number;
}

export class JscGcLog implements TraceParser {
  private readonly sampled: Collection[] = [];
  private current: { collection: Collection; inSampling: boolean } | undefined;
  private heapUsedAt: { start?: number; end?: number } = {};

  marker(which: 'start' | 'end', rest: string): void {
    const m = /heapUsed=(\d+)/.exec(rest);
    if (m) this.heapUsedAt[which] = Number(m[1]);
  }

  line(text: string, phase: 'before' | 'sampling' | 'after'): boolean {
    const start = START.exec(text);
    if (start) {
      const collection: Collection = {
        kind: start[2] === 'Eden' ? 'minor' : 'major',
        firstPauseMs: Number(PAUSE.exec(text)?.[1] ?? 0),
        stepPausesMs: [],
        beforeKb: Number(start[1]),
      };
      this.current = { collection, inSampling: phase === 'sampling' };
      if (this.current.inSampling) this.sampled.push(collection);
    } else if (RESUMED.test(text)) {
      if (this.current) this.current.collection.stepPausesMs.push(Number(PAUSE.exec(text)?.[1] ?? 0));
    } else if (!OTHER.test(text)) {
      return false;
    }
    const end = END.exec(text);
    if (end && this.current) {
      this.current.collection.afterKb = Number(end[1]);
      this.current = undefined;
    }
    return true;
  }

  metrics(): EngineMetrics {
    const kind = (k: 'minor' | 'major'): GcKindCounts => {
      const of = this.sampled.filter((c) => c.kind === k);
      return { count: of.length, timeMs: of.reduce((sum, c) => sum + c.firstPauseMs, 0) };
    };
    const steps = this.sampled.flatMap((c) => c.stepPausesMs);
    const metrics: EngineMetrics = {
      source: `JSC ${GC_LOG_ENV}`,
      gc: { minor: kind('minor'), major: kind('major'), incremental: { count: steps.length, timeMs: steps.reduce((a, b) => a + b, 0) } },
    };
    const { start, end } = this.heapUsedAt;
    if (start !== undefined && end !== undefined) {
      // A collection that started during sampling counts whole, even if it ended after (JSC sweeps concurrently).
      const freed = this.sampled.reduce((sum, c) => sum + Math.max(0, c.beforeKb - (c.afterKb ?? c.beforeKb)) * 1024, 0);
      metrics.allocation = {
        bytes: Math.max(0, end - start + freed),
        method: 'heap used at the end − at the start + what each collection freed (JSC logGC, kB)',
        estimate: true,
      };
    } else {
      metrics.unavailable = { allocation: 'the sampling-phase markers carried no heap figure' };
    }
    return metrics;
  }
}
