/**
 * Calibration of the paired verdicts on quantiles of CPU per request (p50
 * and p99 rows of a comparison; docs/requests.md, "Comparing"):
 *
 *   simulate <run.json…> [--pairs g] [--tables n]
 *                          A/A tables from real processes: per request case
 *                          and variant of the saved runs, its processes are
 *                          exchangeable under "no difference", so a table
 *                          draws 2g of them without replacement and pairs
 *                          them at random (the same draw for every case of a
 *                          variant, so a table's cells keep their
 *                          correlation). Prints the share of tables with any
 *                          decided quantile cell, and with a decided p99.
 *   aa <n> [--lock file] [-- bench args]
 *                          n real A/A tables: `bench <suite> --compare rt rt`
 *                          (default request-tail on node, steady handler);
 *                          counts tables with a decided quantile cell and
 *                          words in the terminal and markdown tables that
 *                          disagree with the interval printed beside them;
 *                          with --lock, each table takes the lock (flock)
 *                          for its own run only.
 *
 *   npx tsx scripts/measure/requests/request-calibration.ts simulate /tmp/aa-*.json --pairs 10
 *   npx tsx scripts/measure/requests/request-calibration.ts aa 20 --lock /tmp/rtbench-measure.lock
 *
 * Real runs take the measurement lock; every figure is printed with the load.
 */
import type { CaseResult, RunRecord } from '@rtbench/core/schema';
import { pairedComparisonView, reporterFor, type ComparisonView } from '@rtbench/report';
import { adjustAll, DEFAULT_RATIO_OPTIONS, isRequestResult, quantilePairs } from '../../../packages/verdicts/src/index.ts';
import { createRandom } from '../../../packages/stats/src/index.ts';
import { benchRun, calibrationArgs, isDecided, loadText, machineSpeedText, mcError, pct, readRun } from '../../lib.ts';


/** Per variant, per request case: its processes' rounds (the source of the null draws). */
function processesByVariant(runs: readonly RunRecord[]): Map<string, Map<string, CaseResult['rounds']>> {
  const out = new Map<string, Map<string, CaseResult['rounds']>>();
  for (const run of runs) {
    for (const r of run.results) {
      if (!isRequestResult(r)) continue;
      const byCase = out.get(r.variantId) ?? new Map<string, CaseResult['rounds']>();
      // Rounds of one index across a run's cases came from one process (one declaration): keep the index, prefixed by the run.
      byCase.set(r.caseId, [...(byCase.get(r.caseId) ?? []), ...r.rounds.filter((x) => x.samples.length > 1).map((x) => ({ ...x, round: x.round + 1000 * runs.indexOf(run) }))]);
      out.set(r.variantId, byCase);
    }
  }
  return out;
}

function simulate(paths: string[], g: number, tables: number, seed: number): void {
  const random = createRandom(seed);
  const sources = processesByVariant(paths.map((p) => readRun(p)));
  let anyDecided = 0;
  let p99Decided = 0;
  let cells = 0;
  for (const [variant, byCase] of sources) {
    const rounds = [...new Set([...byCase.values()].flatMap((rs) => rs.map((r) => r.round)))].filter((round) => [...byCase.values()].every((rs) => rs.some((r) => r.round === round)));
    if (rounds.length < 2 * g) {
      console.log(`  ${variant}: ${rounds.length} processes in every case, fewer than 2 × ${g}: left out`);
      continue;
    }
    for (let t = 0; t < tables; t++) {
      const drawn = [...rounds];
      for (let i = 0; i < 2 * g; i++) {
        const j = i + Math.floor(random() * (drawn.length - i));
        [drawn[i], drawn[j]] = [drawn[j]!, drawn[i]!];
      }
      const pairs: ReturnType<typeof quantilePairs> = [];
      for (const rs of byCase.values()) {
        const side = (from: number): CaseResult => ({ caseId: '', variantId: '', status: 'ok', failures: [], rounds: drawn.slice(from, from + g).map((round, k) => ({ ...rs.find((r) => r.round === round)!, round: k })) });
        pairs.push(...quantilePairs(side(0), side(g), DEFAULT_RATIO_OPTIONS));
      }
      const adjusted = adjustAll(pairs.map((p) => p.pair), DEFAULT_RATIO_OPTIONS);
      cells += pairs.length;
      if (adjusted.some((a) => isDecided(a?.verdict))) anyDecided++;
      if (adjusted.some((a, i) => pairs[i]!.quantile === 'p99' && isDecided(a?.verdict))) p99Decided++;
    }
    console.log(`  ${variant}: ${rounds.length} processes, ${byCase.size} request cases`);
  }
  const n = tables * [...sources.values()].filter((byCase) => byCase.size).length;
  console.log(`${g} process pairs: ${anyDecided}/${n} A/A tables with a decided quantile cell (${pct(anyDecided / n, 1)} ± ${pct(mcError(anyDecided, n), 1)}), ${p99Decided} with a decided p99 (${pct(p99Decided / n, 1)}); ${cells} cells`);
}

/** Quantile rows whose word disagrees with the interval printed beside them, in the terminal and markdown tables. */
function disagreeing(view: ComparisonView): string[] {
  const out: string[] = [];
  for (const format of ['terminal', 'markdown'] as const) {
    const text = String(reporterFor(format)!.render(view, { color: false, columns: 200 }));
    for (const line of text.split('\n').filter((l) => / · p(50|99)\b/.test(l))) {
      const m = /(\d+\.\d+) \((\d+\.\d+)–(\d+\.\d+)\)\s*\|?\s*\**(faster|slower|inconclusive|equivalent)/.exec(line);
      if (!m) continue;
      const excludes = Number(m[2]) > 1 || Number(m[3]) < 1;
      if ((m[4] === 'faster' || m[4] === 'slower') !== excludes) out.push(`${format}: ${line.trim()}`);
    }
  }
  return out;
}

function aa(n: number, extra: string[], lock: string | undefined): void {
  const args = extra.length ? extra : ['request-tail', '--compare', 'node', 'node', '--filter', 'steady handler'];
  let anyDecided = 0;
  let p99Decided = 0;
  let words = 0;
  let cells = 0;
  // Tables where a case read ≠ work (an A/A table of one handler never should: changing responses are masked).
  let differentWork = 0;
  for (let i = 1; i <= n; i++) {
    const before = loadText();
    const r = benchRun(args, lock);
    const view = pairedComparisonView(r.run);
    const rows = view.sections.flatMap((s) => s.cases.filter((c) => c.quantile));
    const wrong = rows.filter((c) => isDecided(c.comparison?.verdict));
    const against = disagreeing(view);
    cells += rows.length;
    words += against.length;
    const different = view.sections.flatMap((s) => s.cases.filter((c) => c.digests));
    if (different.length) differentWork++;
    if (wrong.length) anyDecided++;
    if (wrong.some((c) => c.quantile === 'p99')) p99Decided++;
    console.log(`  table ${i}: ${(r.wallMs / 1000).toFixed(0)} s, ${wrong.length}/${rows.length} quantile cells decided${wrong.length ? ` (${wrong.map((c) => `${c.label} ${c.comparison!.verdict} ${c.comparison!.ratio.toFixed(3)}`).join('; ')})` : ''}, ${different.length} cases ≠ work, ${against.length} words against their interval, load ${before} → ${loadText()}, saved ${r.path}`);
    for (const line of against) console.log(`    ${line}`);
  }
  console.log(`A/A: ${anyDecided} of ${n} tables with a decided quantile cell (${pct(anyDecided / n, 1)} ± ${pct(mcError(anyDecided, n), 1)}), ${p99Decided} with a decided p99; ${words} words against their interval in ${cells} cells; ${differentWork} tables with a case ≠ work`);
}

const { command, rest, flag, files, benchArgs } = calibrationArgs();
console.log(`${new Date().toISOString()}  ${machineSpeedText()}`);
if (command === 'simulate') {
  simulate(files, flag('--pairs', 10), flag('--tables', 2000), flag('--seed', 1));
} else if (command === 'aa') {
  const own = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  aa(Number(rest[0] ?? 20), benchArgs, own.includes('--lock') ? own[own.indexOf('--lock') + 1] : undefined);
} else {
  console.error('usage: request-calibration.ts simulate <run.json…> [--pairs g] [--tables n] [--seed s] | aa <n> [--lock file] [-- bench args]');
  process.exitCode = 2;
}
