/**
 * Does a case's figure depend on what ran before it in the same warm process?
 * Reads saved runs made with warm lockstep processes (every round record has
 * lockstep.servedBefore: how many cases the process served before this one
 * in that set, shuffled per set) and prints, per variant:
 *   - per case: the median of the sets where the case came in the first half
 *     of its process's cases against the median of those in the second half;
 *   - over cases: the median of those late/early ratios and how many are
 *     above 1 (a sign test: with no order effect, about half);
 *   - the same for the paired ratio against the baseline (what the table shows).
 *
 * --by visit splits the sets instead by lockstep.visit (--sets-per-process > 1):
 * a case's first set in a process (set up and fully warmed) against its later
 * ones (kept warm and rewarmed), "late" being the kept ones.
 *
 *   npx tsx scripts/order-effect.ts run.json [run.json ...] [--by visit] [--per-case]
 */
import { readFileSync } from 'node:fs';
import { parseRun, type RoundRecord } from '@rtbench/core/schema';
import { turnLogRatio } from '../packages/stats/src/index.ts';

const argv = process.argv.slice(2);
const byVisit = argv.includes('--by') && argv[argv.indexOf('--by') + 1] === 'visit';
const files = argv.filter((a, i) => !a.startsWith('--') && argv[i - 1] !== '--by');
if (!files.length) {
  console.error('usage: npx tsx scripts/order-effect.ts <run.json> [...]');
  process.exit(2);
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const pct = (x: number): string => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;

/** Binomial two-sided p-value of k successes in n at 1/2. */
function signTest(k: number, n: number): number {
  const choose = (a: number, b: number): number => {
    let r = 1;
    for (let i = 1; i <= b; i++) r = (r * (a - b + i)) / i;
    return r;
  };
  const tail = Math.min(k, n - k);
  let p = 0;
  for (let i = 0; i <= tail; i++) p += choose(n, i) / 2 ** n;
  return Math.min(1, 2 * p);
}

const byVariant = new Map<string, { own: number[]; paired: number[]; cells: string[] }>();
for (const file of files) {
  const run = parseRun(JSON.parse(readFileSync(file, 'utf8')), file);
  const baseline = run.variants[0]!.id;
  const cases = run.cases.length;
  for (const r of run.results) {
    const rounds = r.rounds.filter((x) => (byVisit ? x.lockstep?.visit : x.lockstep?.servedBefore) !== undefined);
    if (rounds.length < 4) continue;
    const early = (x: RoundRecord): boolean => (byVisit ? x.lockstep!.visit === 1 : x.lockstep!.servedBefore! < cases / 2);
    const medians = (xs: RoundRecord[]): number => median(xs.map((x) => median(x.samples)));
    const e = rounds.filter(early);
    const l = rounds.filter((x) => !early(x));
    if (!e.length || !l.length) continue;
    const entry = byVariant.get(r.variantId) ?? { own: [], paired: [], cells: [] };
    byVariant.set(r.variantId, entry);
    entry.own.push(medians(l) / medians(e));
    if (r.variantId === baseline) continue;
    // The paired ratio per set, by where the candidate's case came in its process.
    const base = run.results.find((x) => x.caseId === r.caseId && x.variantId === baseline);
    if (!base) continue;
    const setRatio = (x: RoundRecord): number | undefined => {
      const b = base.rounds.find((y) => y.round === x.round);
      return b && b.samples.length === x.samples.length ? Math.exp(turnLogRatio(b.samples, x.samples)) : undefined;
    };
    const re = e.map(setRatio).filter((x): x is number => x !== undefined);
    const rl = l.map(setRatio).filter((x): x is number => x !== undefined);
    if (re.length && rl.length) {
      entry.paired.push(median(rl) / median(re));
      entry.cells.push(`${r.caseId}: own ${pct(medians(l) / medians(e) - 1)}, ratio ${pct(median(rl) / median(re) - 1)} (${e.length} early sets, ${l.length} late)`);
    }
  }
}

for (const [variant, { own, paired, cells }] of byVariant) {
  const up = own.filter((x) => x > 1).length;
  console.log(`\n${variant}: ${own.length} cells; ${byVisit ? 'kept/first visit' : 'late/early'} median ${pct(median(own) - 1)}, ${up} of ${own.length} above (sign test p=${signTest(up, own.length).toFixed(2)}), range ${pct(Math.min(...own) - 1)}..${pct(Math.max(...own) - 1)}`);
  if (paired.length) {
    const pu = paired.filter((x) => x > 1).length;
    console.log(`  paired ratio late/early median ${pct(median(paired) - 1)}, ${pu} of ${paired.length} above (p=${signTest(pu, paired.length).toFixed(2)}), range ${pct(Math.min(...paired) - 1)}..${pct(Math.max(...paired) - 1)}`);
  }
  if (process.argv.includes('--per-case')) for (const c of cells) console.log(`  ${c}`);
}
