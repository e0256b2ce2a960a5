/**
 * Engine traces read on the host: a runtime whose GC numbers cannot be read
 * from inside (workerd's isolate, Bun's JavaScriptCore) prints them as a
 * trace (V8's --trace-gc-nvp on stdout, JSC's logGC on stderr), and the entry
 * prints two phase markers into the same stream around sampling. A
 * TraceFilter takes the trace lines and the markers out of that stream and
 * passes every other line on, so the case's own output is kept and the trace
 * never drowns it.
 */
import { closeSync, mkdtempSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { guardDir, removeGuardedDir } from './warden.ts';
import { mergeEngineMetrics, type EngineMetrics } from '@rtbench/core/engine-metrics';
import type { RuntimeMessage } from '@rtbench/core/protocol';

/** Phase markers the entries print (one line each; the rest of the line is the marker's data). */
export const SAMPLING_START_MARKER = '@@rtbench-gc sampling-start';
export const SAMPLING_END_MARKER = '@@rtbench-gc sampling-end';

/** What a trace parser does with one line of the stream. */
export interface TraceParser {
  /** True when the line belongs to the trace (it is then kept out of the case's output). */
  line(text: string, phase: 'before' | 'sampling' | 'after'): boolean;
  /** Called with the text after a marker (e.g. heap figures the entry printed with it). */
  marker?(which: 'start' | 'end', rest: string): void;
  /** The metrics of the sampling phase, or why there are none. */
  metrics(): EngineMetrics;
}

/**
 * Splits a stream into lines, gives each to the parser, returns the rest for
 * the output tail. A warm process (a serve job) marks one sampling phase per
 * case: with `fresh`, each phase after the first gets its own parser,
 * created when the previous phase ends (so it sees what comes before its
 * own phase, as the first parser does), and segmentMetrics() gives each
 * phase's metrics in order.
 */
export class TraceFilter {
  private buffered = '';
  private phase: 'before' | 'sampling' | 'after' = 'before';
  private markersSeen = 0;
  /** One entry per sampling phase begun: its parser, and whether its end marker came. */
  private readonly segments: { parser: TraceParser; ended: boolean }[] = [];
  /** The next phase's parser, created when the previous phase ended. */
  private next: TraceParser | undefined;

  constructor(
    /** The first (for a one-case process, the only) sampling phase's parser. */
    readonly parser: TraceParser,
    private readonly fresh?: () => TraceParser,
  ) {}

  /** A chunk of the stream in; the text that is not trace out. */
  push(chunk: string): string {
    this.buffered += chunk;
    const cut = this.buffered.lastIndexOf('\n');
    if (cut === -1) {
      // Megabytes without a newline (a case printing one huge line): not trace, and not to be held.
      if (this.buffered.length <= MAX_TRACE_LINE_CHARS) return '';
      const text = this.buffered;
      this.buffered = '';
      return text;
    }
    const complete = this.buffered.slice(0, cut);
    this.buffered = this.buffered.slice(cut + 1);
    return complete.split('\n').map((l) => this.take(l)).join('');
  }

  /** The stream ended: a last line without a newline still counts. */
  end(): string {
    const rest = this.buffered;
    this.buffered = '';
    return rest ? this.take(rest) : '';
  }

  /** Both markers were seen: the (first) sampling phase is delimited in this stream. */
  get delimited(): boolean {
    return this.segments[0]?.ended === true && (this.fresh !== undefined || this.markersSeen === 2);
  }

  /** Each sampling phase's metrics, in the order the phases began; undefined for a phase whose end marker never came. */
  segmentMetrics(): (EngineMetrics | undefined)[] {
    return this.segments.map((s) => (s.ended ? s.parser.metrics() : undefined));
  }

  private get current(): TraceParser {
    return this.segments[this.segments.length - 1]?.parser ?? this.parser;
  }

  private take(line: string): string {
    for (const [marker, which, next] of [
      [SAMPLING_START_MARKER, 'start', 'sampling'],
      [SAMPLING_END_MARKER, 'end', 'after'],
    ] as const) {
      const at = line.indexOf(marker);
      if (at === -1) continue;
      if (which === 'start') {
        if (!this.segments.length) this.segments.push({ parser: this.parser, ended: false });
        else if (this.fresh) this.segments.push({ parser: this.next ?? this.fresh(), ended: false });
        this.next = undefined;
      } else {
        const open = this.segments[this.segments.length - 1];
        if (open) open.ended = true;
        this.next = this.fresh?.();
      }
      this.phase = next;
      this.markersSeen++;
      this.current.marker?.(which, line.slice(at + marker.length).trim());
      // Text before the marker on the same line (a partial line flushed by buffered stdio) is not lost.
      return at > 0 ? this.take(line.slice(0, at)) : '';
    }
    const taken = this.current.line(line, this.phase);
    // Between two phases, the next phase's parser sees the same lines as its 'before'.
    const takenByNext = this.phase === 'after' && this.next ? this.next.line(line, 'before') : false;
    return taken || takenByNext ? '' : `${line}\n`;
  }
}

/**
 * Where a traced stream goes while the child runs: a file, not a pipe. A
 * pipe that the host drains late (on a loaded machine) fills after ~64 KB,
 * and then every GC blocks the child on its trace write, which slowed workerd
 * on an allocating case (runners/workerd/README.md). A file never blocks,
 * and writes from one process to one descriptor stay in order.
 */
/** Bytes read from a trace file at a time. */
const DRAIN_CHUNK_BYTES = 1 << 20;
/** A line longer than this is not an engine's trace line: it is passed on as other output rather than held. */
const MAX_TRACE_LINE_CHARS = 1 << 20;

export class TraceFile {
  readonly fd: number;
  private readonly dir: string;
  private drained = false;

  constructor() {
    // The host's PID in the name: whose file it is, if one is ever left behind.
    this.dir = mkdtempSync(join(tmpdir(), `rtbench-trace-${process.pid}-`));
    // Removed by the warden if the host dies before drain() (SIGKILL, a crash).
    guardDir(this.dir);
    this.fd = openSync(join(this.dir, 'stream.log'), 'w');
  }

  /**
   * After the child ended: the stream through the filter, a chunk at a time
   * (a process may write hundreds of MB), what is not trace handed to `sink`
   * (a bounded Tail). Removes the file.
   */
  drain(filter: TraceFilter, sink: (text: string) => void): void {
    if (this.drained) return;
    this.drained = true;
    closeSync(this.fd);
    let fd: number | undefined;
    try {
      fd = openSync(join(this.dir, 'stream.log'), 'r');
      const chunk = Buffer.alloc(DRAIN_CHUNK_BYTES);
      const decoder = new StringDecoder('utf8');
      for (let n: number; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0; ) sink(filter.push(decoder.write(chunk.subarray(0, n))));
      sink(filter.push(decoder.end()) + filter.end());
    } finally {
      if (fd !== undefined) closeSync(fd);
      removeGuardedDir(this.dir);
    }
  }
}

/**
 * Puts the trace's metrics on the job's result message, merged with what the
 * entry could see from inside. Without both markers the phase is unknown and
 * the metrics say so rather than count the wrong lines.
 */
export function attachTraceMetrics(messages: RuntimeMessage[], filter: TraceFilter, notDelimited: string): void {
  const segments = filter.segmentMetrics();
  // A case's sampling phase begins just before its ready (lockstep, serve); a measure job has one phase and no ready.
  const phaseOf = new Map<string, number>();
  let readies = 0;
  for (const m of messages) if (m.type === 'ready') phaseOf.set(m.caseId, readies++);
  for (const result of messages) {
    if (result.type !== 'result') continue;
    const phase = readies ? phaseOf.get(result.caseId) : 0;
    const fromPhase = phase !== undefined ? segments[phase] : undefined;
    const fromTrace: EngineMetrics = fromPhase && (phase !== 0 || filter.delimited) ? fromPhase : { source: 'trace', unavailable: { gc: notDelimited } };
    result.metrics = mergeEngineMetrics(result.metrics, fromTrace);
    if (!readies) return;
  }
}
