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
 *   flock /tmp/rtbench-measure.lock npx tsx scripts/warmup-reference.ts run gc-pressure
 *   npx tsx scripts/warmup-reference.ts check results/a.json results/b.json
 *
 * Real runs take the measurement lock; every figure is printed with the load.
 */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { benchView } from '@rtbench/report';
import { benchRun, repoRoot } from './lib.ts';

const REFERENCE_ARGS = ['--warmup', '5s', '--rounds', '3', '--max-rounds', '3'];
const load = (): string => loadavg().map((x) => x.toFixed(1)).join(' / ');

function medians(run: RunRecord): Map<string, { median: number; mark?: string }> {
  const out = new Map<string, { median: number; mark?: string }>();
  for (const c of benchView(run).cases) for (const row of c.rows) if (row.stats) out.set(`${c.label} · ${row.variantId}`, { median: row.stats.median, ...(row.steady?.mark ? { mark: row.steady.mark } : {}) });
  return out;
}

function check(reference: RunRecord, run: RunRecord): void {
  const ref = medians(reference);
  const got = medians(run);
  let within = 0;
  let cells = 0;
  const slower: string[] = [];
  for (const [cell, r] of ref) {
    const d = got.get(cell);
    if (!d) continue;
    cells++;
    const ratio = d.median / r.median;
    if (Math.abs(ratio - 1) <= 0.03) within++;
    if (ratio > 1.1) slower.push(`${cell}: ${ratio.toFixed(3)}× the reference${d.mark ? ` (marked ${d.mark})` : ' (no mark)'}`);
  }
  console.log(`${run.suite}: ${within} of ${cells} cells within 3% of the reference (${((100 * within) / Math.max(1, cells)).toFixed(1)}%); more than 10% slower: ${slower.length}`);
  for (const line of slower) console.log(`  ${line}`);
}

const [command, ...rest] = process.argv.slice(2);
if (command === 'check' && rest.length === 2) {
  check(parseRun(JSON.parse(readFileSync(rest[0]!, 'utf8')), rest[0]!), parseRun(JSON.parse(readFileSync(rest[1]!, 'utf8')), rest[1]!));
} else if (command === 'run' && rest[0]) {
  const [suite, ...extra] = rest;
  mkdirSync(join(repoRoot, 'results'), { recursive: true });
  const saved: string[] = [];
  for (const [what, args] of [['reference', [...REFERENCE_ARGS, ...extra]], ['default', extra]] as const) {
    const before = load();
    const r = benchRun([suite!, ...args]);
    const path = join(repoRoot, 'results', `${r.run.id}-${suite!.replace(/[^\w.-]+/g, '_')}-warmup-${what}.json`);
    copyFileSync(r.path, path);
    saved.push(path);
    console.log(`${what}: ${(r.wallMs / 1e3).toFixed(0)} s, exit ${r.status}, load ${before} → ${load()}; saved ${path}`);
  }
  check(parseRun(JSON.parse(readFileSync(saved[0]!, 'utf8')), saved[0]!), parseRun(JSON.parse(readFileSync(saved[1]!, 'utf8')), saved[1]!));
} else {
  console.error('usage: warmup-reference.ts run <suite> [bench args…] | check <reference.json> <default.json>');
  process.exit(2);
}
