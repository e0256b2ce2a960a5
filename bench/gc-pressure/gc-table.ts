/**
 * GC counts per case from a saved run, as a markdown table:
 *   npx tsx bench/gc-pressure/gc-table.ts results/<run>.json
 *
 * The harness reads the runtime's GC counters (where it has a probe, e.g.
 * PerformanceObserver 'gc' entries on Node) before warmup and after the last
 * sample of each process. Dividing by the iterations run in between gives
 * collections and GC time per 1,000 iterations, comparable across variants
 * whose iteration counts differ.
 */
import { readFileSync } from 'node:fs';
import { parseRun, type RunRecord } from '@rtbench/core/schema';

type Result = RunRecord['results'][number];

export interface GcRow {
  caseId: string;
  variantId: string;
  medianNs: number;
  meanNs: number;
  p25Ns: number;
  p75Ns: number;
  /** Undefined when no round of this case had GC counters. */
  gcPer1k?: number;
  gcMsPer1k?: number;
  /** GC time over (iterations × mean time per iteration). */
  gcShare?: number;
}

export function gcRows(run: RunRecord): GcRow[] {
  return run.results.filter((r): r is Result & { stats: NonNullable<Result['stats']> } => r.stats !== undefined).map((r) => {
    const row: GcRow = { caseId: r.caseId, variantId: r.variantId, medianNs: r.stats.median, meanNs: r.stats.mean, p25Ns: r.stats.p25, p75Ns: r.stats.p75 };
    let iterations = 0;
    let count = 0;
    let timeMs = 0;
    let timed = true;
    for (const round of r.rounds) {
      if (!round.gc) return row;
      iterations += round.warmupIterations + round.samples.length * round.iterationsPerSample;
      count += round.gc.count;
      if (round.gc.timeMs === undefined) timed = false;
      else timeMs += round.gc.timeMs;
    }
    if (iterations === 0) return row;
    row.gcPer1k = (count / iterations) * 1000;
    if (timed) {
      row.gcMsPer1k = (timeMs / iterations) * 1000;
      row.gcShare = (timeMs * 1e6) / (iterations * r.stats.mean);
    }
    return row;
  });
}

function us(ns: number): string {
  return ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : `${(ns / 1e3).toFixed(ns < 1e4 ? 2 : 1)} µs`;
}

export function gcMarkdown(rows: GcRow[]): string {
  const lines = [
    '| case | variant | median | p25–p75 | mean | GCs / 1k iter | GC ms / 1k iter | GC share |',
    '|---|---|--:|--:|--:|--:|--:|--:|',
  ];
  let last = '';
  for (const r of rows) {
    const name = r.caseId === last ? '' : r.caseId;
    last = r.caseId;
    const gc = r.gcPer1k === undefined ? ['n/a', 'n/a', 'n/a'] : [r.gcPer1k.toFixed(0), r.gcMsPer1k?.toFixed(1) ?? 'n/a', r.gcShare === undefined ? 'n/a' : `${(r.gcShare * 100).toFixed(0)}%`];
    lines.push(`| ${name} | ${r.variantId} | ${us(r.medianNs)} | ${us(r.p25Ns)}–${us(r.p75Ns)} | ${us(r.meanNs)} | ${gc.join(' | ')} |`);
  }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const path = process.argv[2];
  if (!path) {
    process.stderr.write('usage: npx tsx bench/gc-pressure/gc-table.ts results/<run>.json\n');
    process.exit(2);
  }
  const run = parseRun(JSON.parse(readFileSync(path, 'utf8')), path);
  process.stdout.write(`${gcMarkdown(gcRows(run))}\n`);
}
