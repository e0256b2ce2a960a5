/**
 * The runner protocol: what the host asks a runtime process to do (a Job) and
 * what the process answers (RuntimeMessages). node, deno and bun print each
 * message as one line on stdout behind a marker, so a case that logs cannot
 * corrupt the stream; workerd returns the same messages in an HTTP response.
 * The host validates every message (schema.ts) before it trusts a number.
 */
import type { ClockInfo } from './clock.ts';
import type { EngineMetrics } from './engine-metrics.ts';
import type { MeasureOptions } from './measure.ts';
import type { Params, RuntimeKind } from './suite.ts';

export const PROTOCOL_VERSION = 1;
/** Prefix of every protocol line on a runtime's stdout. */
export const LINE_MARKER = '@@rtbench ';

export type Job =
  | { protocol: typeof PROTOCOL_VERSION; kind: 'list' }
  | { protocol: typeof PROTOCOL_VERSION; kind: 'measure'; caseId: string; options: MeasureOptions };

/** What a runtime reports about itself, from inside. */
export interface RuntimeFacts {
  runtime: RuntimeKind;
  version: string;
  engine: 'v8' | 'jsc';
  engineVersion: string;
  /** Whether the case can force a GC (gc() / Bun.gc), e.g. under --expose-gc. */
  gcExposed: boolean;
}

export interface CaseListing {
  id: string;
  name: string;
  group?: string | undefined;
  params: Params;
}

export interface GcCounters {
  /** Collections during sampling (all kinds the runtime reports). */
  count: number;
  /** Time spent in GC during sampling, in ms, where the runtime reports it. */
  timeMs?: number;
  /** Where the numbers come from, e.g. "PerformanceObserver(gc)". */
  source: string;
}

export interface CaseResultMessage {
  type: 'result';
  caseId: string;
  digest: { hash: string; summary: string };
  clock: ClockInfo;
  samples: number[];
  /** Start of each sample in ms since the process's clock origin (absent from older runners). */
  sampleStartMs?: number[];
  iterationsPerSample: number;
  warmupIterations: number;
  async: boolean;
  gc?: GcCounters;
  /** GC by kind, allocation and heap state over sampling (engine-metrics.ts). */
  metrics?: EngineMetrics;
}

export type RuntimeMessage =
  | { type: 'hello'; protocol: number; facts: RuntimeFacts }
  | { type: 'cases'; cases: CaseListing[] }
  | CaseResultMessage
  | { type: 'unsupported'; caseId: string; reason: string }
  /** Something the report should say about a case that still ran (e.g. it returns nothing). */
  | { type: 'warning'; caseId: string; message: string }
  | { type: 'error'; caseId?: string; phase: 'load' | 'setup' | 'run' | 'teardown'; message: string; stack?: string };

export function encodeLine(message: RuntimeMessage): string {
  return LINE_MARKER + JSON.stringify(message);
}
