/**
 * Honesty of the watched warmup against a long one (docs/warmup.md,
 * "Against a long warmup"): each cell's median in a default run against
 * the same cell's median in a reference run whose every process warmed for
 * at least 5 s per case. Counts the cells within 3% and lists the cells the
 * default reads more than 10% slower, with their steady-state mark.
 *
 *   run <suite> [bench args…]      the reference (--warmup 5s --rounds 3) then the default, back to back; saved under results/
 *   check <reference.json> <default.json>
 *
 *   flock /tmp/rtbench-measure.lock npx tsx scripts/measure/warmup/warmup-reference.ts run gc-pressure
 *   npx tsx scripts/measure/warmup/warmup-reference.ts check results/<run-a>.json results/<run-b>.json
 *
 * Real runs take the measurement lock; every figure is printed with the load.
 */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { benchView } from '@rtbench/report';
import { fileStamp } from '@rtbench/host/files';
import { mannWhitney, median } from '@rtbench/stats';
import { benchRun, loadText, repoRoot } from '../../lib.ts';

const REFERENCE_ARGS = ['--warmup', '5s', '--rounds', '3', '--max-rounds', '3'];

/** Per cell: the table's median and mark, and each process's median (a process is the unit that is independent). */
function cells(run: RunRecord): Map<string, { median: number; mark?: string; processes: number[] }> {
  const out = new Map<string, { median: number; mark?: string; processes: number[] }>();
  for (const c of benchView(run).cases)
    for (const row of c.rows) {
      if (!row.stats) continue;
      const result = run.results.find((r) => r.caseId === c.caseId && r.variantId === row.variantId);
      const processes = (result?.rounds ?? []).filter((x) => x.samples.length).map((x) => median(x.samples));
      out.set(`${c.label} · ${row.variantId}`, { median: row.stats.median, ...(row.steady?.mark ? { mark: row.steady.mark } : {}), processes });
    }
  return out;
}

/**
 * Two questions per cell. The issue's: is the default's median within 3% of
 * the reference's? And the one a two-speed machine lets be answered: do the
 * default's processes read slower (or faster) than the reference's beyond
 * their spread between processes (Mann–Whitney on the log process medians,
 * two-sided p < 0.05)? A cell whose processes fall in two speeds 1.5–1.8×
 * apart (docs/measurements/two-speed-noise.md) misses 3% by which speed its
 * few processes happened to take, not by warmup.
 */
function check(reference: RunRecord, run: RunRecord): void {
  const ref = cells(reference);
  const got = cells(run);
  let within = 0;
  let compared = 0;
  let twoSpeed = 0;
  const slower: string[] = [];
  const beyond: { slower: string[]; faster: string[] } = { slower: [], faster: [] };
  for (const [cell, r] of ref) {
    const d = got.get(cell);
    if (!d) continue;
    compared++;
    const ratio = d.median / r.median;
    if (Math.abs(ratio - 1) <= 0.03) within++;
    const mark = d.mark ? ` (marked ${d.mark})` : ' (no mark)';
    if (ratio > 1.1) slower.push(`${cell}: ${ratio.toFixed(3)}× the reference${mark}`);
    if ([...r.processes, ...d.processes].length && Math.max(...r.processes, ...d.processes) / Math.min(...r.processes, ...d.processes) > 1.4) twoSpeed++;
    if (r.processes.length < 2 || d.processes.length < 2) continue;
    const test = mannWhitney(r.processes.map(Math.log), d.processes.map(Math.log));
    if (test.pValue < 0.05) (test.estimate > 0 ? beyond.slower : beyond.faster).push(`${cell}: ${Math.exp(test.estimate).toFixed(3)}× (p ${test.pValue.toFixed(3)})${mark}`);
  }
  console.log(`${run.suite}: ${within} of ${compared} cells within 3% of the reference (${((100 * within) / Math.max(1, compared)).toFixed(1)}%); more than 10% slower: ${slower.length}`);
  for (const line of slower) console.log(`  ${line}`);
  console.log(`process medians spread over more than 1.4× (the two runs' processes together): ${twoSpeed} of ${compared} cells`);
  console.log(`slower than the reference beyond the spread between processes (Mann–Whitney, p < 0.05): ${beyond.slower.length} cells; faster: ${beyond.faster.length}`);
  for (const line of beyond.slower) console.log(`  slower ${line}`);
  for (const line of beyond.faster) console.log(`  faster ${line}`);
}

const [command, ...rest] = process.argv.slice(2);
if (command === 'check' && rest.length === 2) {
  check(parseRun(JSON.parse(readFileSync(rest[0]!, 'utf8')), rest[0]!), parseRun(JSON.parse(readFileSync(rest[1]!, 'utf8')), rest[1]!));
} else if (command === 'run' && rest[0]) {
  const [suite, ...extra] = rest;
  mkdirSync(join(repoRoot, 'results'), { recursive: true });
  const saved: string[] = [];
  for (const [what, args] of [['reference', [...REFERENCE_ARGS, ...extra]], ['default', extra]] as const) {
    const before = loadText();
    const r = benchRun([suite!, ...args]);
    // Named as results/ keeps saved runs (README there; test/tracked-state.test.ts): <stamp>Z-<suite>-….json.
    const path = join(repoRoot, 'results', `${fileStamp(r.run.startedAt)}-${suite!.replace(/[^\w.-]+/g, '_')}-warmup-${what}.json`);
    copyFileSync(r.path, path);
    saved.push(path);
    console.log(`${what}: ${(r.wallMs / 1e3).toFixed(0)} s, exit ${r.status}, load ${before} → ${loadText()}; saved ${path}`);
  }
  check(parseRun(JSON.parse(readFileSync(saved[0]!, 'utf8')), saved[0]!), parseRun(JSON.parse(readFileSync(saved[1]!, 'utf8')), saved[1]!));
} else {
  console.error('usage: warmup-reference.ts run <suite> [bench args…] | check <reference.json> <default.json>');
  process.exit(2);
}
