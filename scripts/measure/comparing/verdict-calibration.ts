/**
 * Calibration of the verdicts a table gives (docs/comparing.md, "Calibration"):
 *
 *   simulate <run.json…>   A/A tables and power by simulation. Each saved run
 *                          gives, per cell, its units' centred log ratios (the
 *                          null noise, heavy tails and all); a simulated table
 *                          draws g of those units without replacement, the
 *                          same units for every cell, so the cells keep their
 *                          correlation, and turns each drawn unit's sign at
 *                          random per variant (in an A/A table the arms are
 *                          exchangeable: a process pair is as likely either
 *                          way round; between two runtimes the noise can be
 *                          skewed, one runtime's slow processes on one side). The source needs many units: a long
 *                          run with one set per process (--rounds 24
 *                          --sets-per-process 1).
 *                          Prints the per-table false-verdict rate with its
 *                          Monte-Carlo error, and the power at true ratios
 *                          1.02, 1.05, 1.2 and 1.8, for designs of g units.
 *   aa <n> [-- [suite] bench args]
 *                          n real A/A tables: one runtime as every arm of the
 *                          default design (or the arms --runtime or --compare
 *                          names, json-reviver unless a suite is named);
 *                          counts tables with any decided cell.
 *   words <run.json…>      every cell whose word disagrees with the interval
 *                          printed beside it, in the view and in the
 *                          terminal and markdown tables (expected: none).
 *   widths <run.json…>     per run: wall time, rounds per arm, cells with an
 *                          interval and their median half-width, decided cells
 *                          per minute (what a schedule's minute buys).
 *   stopping <run.json…>  the stopping rule by simulation (stopping-simulation.ts):
 *                          A/A tables drawn from each run's variance
 *                          components under today's fixed design, under
 *                          the anytime stopping rule and under stopping on
 *                          peeks at t intervals; then every cell at its
 *                          source's own ratio: cells decided, words against
 *                          the true direction, case-rounds spent.
 *                          Noise: Student t per cell, and per arm (a case's
 *                          cells sharing their baseline's draw, as when one
 *                          runtime is every arm). --arms 2 keeps the first
 *                          candidate's cells alone (one runtime as both arms).
 *                          [--tables n] [--min-rounds 4] [--fixed-rounds 6]
 *                          [--max-rounds 30] [--budget case-rounds] [--arms 2]
 *                          [--far-pair: cells also projected without their
 *                          farthest unit, as a comparison's rule does]
 *   compare-stopping <run.json…>
 *                          `--stop decided` under --compare against the
 *                          30-set design, by simulation from a comparison's
 *                          variance components (its first candidate's
 *                          cells): per true change in every cell
 *                          (--effects, in %; 0 is A/A) and at the source's
 *                          own ratios, 2,000 comparisons per design, each
 *                          against an independent 30-set reference: the
 *                          reference's words given (also on the cells a
 *                          second, independent reference repeats), the
 *                          share of its case-rounds, false words at no
 *                          change. Designs:
 *                          a second 30-set run (the ceiling), the rule at
 *                          each prior precision (--priors: numbers,
 *                          tuned15 or tuned8, the precision narrowest at 15
 *                          or 8 pairs for the comparison's cells), the
 *                          fixed design at 7 pairs (no look, under half), the
 *                          rule with a planned last look at 15 pairs on t
 *                          intervals (--final-shares: its share of α), and
 *                          peeking at t intervals (not valid: the bound).
 *   same-verdicts <reference.json> <run.json…>
 *                          of the cells a reference design decides, those
 *                          each run gives the same word, and its time
 *                          against the reference's (a --compare run's
 *                          verdicts, a table's "vs" column).
 *   recalibrate [--source run.json] [--before run.json] [--tables 3000]
 *                          everything that depends on the headline
 *                          statistic, in one command: a 24-pair source run
 *                          of the default table (SOURCE_RUN; or --source, a
 *                          saved one), then from it the simulated A/A rate
 *                          of the default design (5, 6 and 7 pairs) and the
 *                          stopping rule's A/A rate (`stopping`, today's
 *                          design), each beside the same figures from
 *                          --before (BEFORE_RUN: a default table of 6
 *                          pairs from before samples were grown, read by
 *                          its medians: the stopping rule's figures; a
 *                          source of 12 pairs or more gives both).
 *   agree <reference.json> <run.json…>
 *                          cells the reference decides beyond 1.2× either way
 *                          that each run decides, cells decided against the
 *                          reference's direction, and decided cells per minute.
 *
 *   npx tsx scripts/measure/comparing/verdict-calibration.ts simulate results/….json --units 5 --tables 2000
 *   flock /tmp/rtbench-measure.lock npx tsx scripts/measure/comparing/verdict-calibration.ts aa 40
 *   flock /tmp/rtbench-measure.lock npx tsx scripts/measure/comparing/verdict-calibration.ts recalibrate
 *
 * Real runs take the measurement lock; every figure is printed with the load.
 */
import type { RunRecord } from '@rtbench/core/schema';
import { applyFdr, comparePaired, createRandom, processesOf, readByMean, type Comparison } from '../../../packages/stats/src/index.ts';
import { benchView, reporterFor, viewOfRun } from '@rtbench/report';
import { agreementWithFixed, components, direction, firstCandidate, fixedTable, stoppedTable, unitLogRatios, type DesignOptions, type Noise, type TableOutcome } from '../stopping/stopping-simulation.ts';
import { anytimeHalfWidth } from '../../../packages/stats/src/confidence-sequence.ts';
import { pairable } from '../../../packages/measurer-records/src/index.ts';
import { benchRun, calibrationArgs, isDecided, loadText, machineSpeedText, mcError, pct, type RatioCell, readRun, tableRatios } from '../../lib.ts';


/** How a run's cells were read: those whose samples stayed bimodal at their cap are read by means (stats amortized.ts), in their figures and ratios, and in these simulations' units alike. */
function statisticText(run: RunRecord): string {
  const byMean = run.results.filter((r) => readByMean(r.rounds)).length;
  return `${byMean} of ${run.results.length} case × variant results read by their means`;
}

/** Per cell (case × candidate vs the first variant): the mean log ratio of each unit, keyed by unit. */
function unitValues(run: RunRecord): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  const baseline = run.variants[0]!.id;
  for (const c of run.cases) {
    const base = run.results.find((r) => r.caseId === c.id && r.variantId === baseline);
    for (const v of run.variants.slice(1)) {
      const cand = run.results.find((r) => r.caseId === c.id && r.variantId === v.id);
      if (!base || !cand) continue;
      out.set(`${c.id} · ${v.id}`, unitLogRatios(base.rounds.map(pairable), cand.rounds.map(pairable)));
    }
  }
  return out;
}

/** The null noise of a run: per cell, the units' values centred on the cell's mean, scaled up by √(n/(n−1)). */
function nullNoise(run: RunRecord): { cells: string[]; units: string[]; noise: number[][]; variantOf: number[] } {
  const values = unitValues(run);
  const cells = [...values.keys()];
  // Units present in every cell: drawing one gives every cell that unit's value.
  const units = [...(values.get(cells[0]!)?.keys() ?? [])].filter((u) => cells.every((c) => values.get(c)!.has(u)));
  if (units.length < 12) throw new Error(`${run.id}: ${units.length} units in every cell; a simulation source needs 12 or more (a long run with --sets-per-process 1)`);
  const noise = cells.map((c) => {
    const v = units.map((u) => values.get(c)!.get(u)!);
    const mean = v.reduce((a, b) => a + b, 0) / v.length;
    const scale = Math.sqrt(v.length / Math.max(1, v.length - 1));
    return v.map((x) => (x - mean) * scale);
  });
  const variantIds = run.variants.slice(1).map((v) => v.id);
  const variantOf = cells.map((c) => variantIds.findIndex((v) => c.endsWith(` · ${v}`)));
  return { cells, units, noise, variantOf };
}

interface SimResult {
  tables: number;
  falseTables: number;
  /** One cell at the true ratio among null cells (the hardest case for the table's correction). */
  power: Map<number, { cells: number; right: number; wrong: number }>;
  /** Every cell of the table at the true ratio (a change that moves the whole suite). */
  powerAll: Map<number, { cells: number; right: number; wrong: number }>;
}

/** One simulated table: g of the source's units drawn without replacement, each unit's sign turned at random per variant; `effect(cell)` the true log ratio. */
function simulateTable(noise: number[][], variantOf: number[], g: number, random: () => number, effect: (cell: number) => number): Comparison[] {
  const pool = Array.from({ length: noise[0]!.length }, (_, i) => i);
  for (let i = 0; i < g; i++) {
    const j = i + Math.floor(random() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  const draw = pool.slice(0, g);
  const variants = Math.max(...variantOf) + 1;
  const sign = draw.map(() => Array.from({ length: variants }, () => (random() < 0.5 ? -1 : 1)));
  const comparisons = noise.map((cell, i) => {
    const base = draw.map(() => 1);
    const cand = draw.map((u, k) => Math.exp(sign[k]![variantOf[i]!]! * cell[u]! + effect(i)));
    return comparePaired(base, cand);
  });
  return applyFdr(comparisons);
}

function simulate(paths: string[], g: number, tables: number, seed: number): SimResult {
  const random = createRandom(seed);
  const sources = paths.map((p) => nullNoise(readRun(p)));
  const out: SimResult = { tables: 0, falseTables: 0, power: new Map(), powerAll: new Map() };
  for (let t = 0; t < tables; t++) {
    const { noise, variantOf } = sources[t % sources.length]!;
    if (simulateTable(noise, variantOf, g, random, () => 0).some((c) => isDecided(c.verdict))) out.falseTables++;
    out.tables++;
  }
  // Power: one cell at the true ratio among null cells (the hardest case for the table's correction).
  for (const ratio of [1.02, 1.05, 1.2, 1.8]) {
    const p = { cells: 0, right: 0, wrong: 0 };
    for (let t = 0; t < Math.max(200, tables / 5); t++) {
      const { noise, variantOf } = sources[t % sources.length]!;
      const target = t % noise.length;
      const c = simulateTable(noise, variantOf, g, random, (i) => (i === target ? Math.log(ratio) : 0))[target]!;
      p.cells++;
      if (c.verdict === 'slower') p.right++;
      else if (c.verdict === 'faster') p.wrong++;
    }
    out.power.set(ratio, p);
    const all = { cells: 0, right: 0, wrong: 0 };
    for (let t = 0; t < Math.max(50, tables / 20); t++) {
      const { noise, variantOf } = sources[t % sources.length]!;
      for (const c of simulateTable(noise, variantOf, g, random, () => Math.log(ratio))) {
        all.cells++;
        if (c.verdict === 'slower') all.right++;
        else if (c.verdict === 'faster') all.wrong++;
      }
    }
    out.powerAll.set(ratio, all);
  }
  return out;
}

/** A cell's ratio and interval, as the scripts print it: "0.979 [0.966–0.993]". */
const ratioText = (c: RatioCell): string => `${c.ratio.toFixed(3)} [${c.ci.map((x) => x.toFixed(3)).join('–')}]`;

/** Binomial standard error of a rate. */

function agree(referencePath: string, paths: readonly string[]): void {
  const reference = tableRatios(benchView(readRun(referencePath)));
  const strong = [...reference].filter(([, c]) => isDecided(c.verdict) && (c.ratio >= 1.2 || c.ratio <= 1 / 1.2));
  console.log(`reference ${referencePath}: ${reference.size} cells, ${strong.length} decided beyond 1.2× either way`);
  for (const path of paths) {
    const run = readRun(path);
    const cells = tableRatios(benchView(run));
    let decidedStrong = 0;
    const against: string[] = [];
    let decidedAll = 0;
    for (const [key, c] of cells) {
      const ref = reference.get(key);
      if (!isDecided(c.verdict)) continue;
      decidedAll++;
      if (ref && isDecided(ref.verdict) && Math.sign(Math.log(ref.ratio)) !== Math.sign(Math.log(c.ratio))) {
        against.push(`${key}: ${ratioText(c)} against the reference's ${ratioText(ref)}`);
      }
    }
    for (const [key] of strong) if (isDecided(cells.get(key)?.verdict ?? '')) decidedStrong++;
    const minutes = (run.timing?.wallMs ?? NaN) / 60_000;
    const o = run.options;
    // Rounds that shared a process, from the rounds' own process labels.
    const perProcess = Math.max(...run.results.map((r) => r.rounds.length / Math.max(1, new Set(processesOf(r.rounds.map(pairable)) ?? r.rounds.map((x) => x.round)).size)));
    console.log(
      `  ${path}: rounds ${o.rounds}${perProcess > 1 ? ` × ${+perProcess.toFixed(2)} per process` : ''}, ${(minutes * 60).toFixed(0)} s: ` +
        `${decidedStrong}/${strong.length} of the reference's >1.2× cells decided (${pct(decidedStrong / Math.max(1, strong.length), 0)}), ${against.length} against its direction, ` +
        `${decidedAll}/${cells.size} cells decided, ${(decidedAll / minutes).toFixed(1)} decided per minute`,
    );
    for (const line of against) console.log(`    against: ${line}`);
  }
}

/** Cells whose word and printed interval disagree, per run: in the view, and in the terminal and markdown text. */
function words(paths: readonly string[]): void {
  let cells = 0;
  let disagree = 0;
  for (const path of paths) {
    const view = benchView(readRun(path));
    for (const row of view.cases.flatMap((c) => c.rows)) {
      const r = row.relative;
      if (!r) continue;
      cells++;
      const excludes = r.ci[0] > 1 || r.ci[1] < 1;
      if (isDecided(r.verdict) !== excludes) {
        disagree++;
        console.log(`  ${path}: ${row.caseId} · ${row.variantId}: ${r.verdict} [${r.ci.join(', ')}]`);
      }
    }
    for (const format of ['terminal', 'markdown'] as const) {
      const text = String(reporterFor(format)!.render(view, { color: false, columns: 200 }));
      for (const m of text.matchAll(/(?<=^|\s)(faster <\d+%|slower <\d+%|faster|slower|≈|=)\s[^[(\n]*?\[(\d+\.\d+)–(\d+\.\d+)\]/gm)) {
        const excludes = Number(m[2]) > 1 || Number(m[3]) < 1;
        if ((m[1] === '≈' || m[1] === '=') === excludes) {
          disagree++;
          console.log(`  ${path} (${format}): ${m[0]}`);
        }
      }
    }
  }
  console.log(`${disagree} cells whose word disagrees with its printed interval, of ${cells} cells in ${paths.length} runs (view, terminal, markdown)`);
}

/** Per run, what its wall time bought: cells with an interval, their median half-width, decided cells and cells decided per minute. */
function widths(paths: readonly string[]): void {
  for (const path of paths) {
    const run = readRun(path);
    const view = benchView(run);
    const cells = view.cases.flatMap((c) => c.rows).filter((r) => !r.isBaseline);
    const ratios = [...tableRatios(view).values()].filter((c) => c.ci[0] > 0 && Number.isFinite(c.ci[1]));
    const halfWidths = ratios.map((c) => Math.sqrt(c.ci[1] / c.ci[0]) - 1).sort((a, b) => a - b);
    const minutes = (run.timing?.wallMs ?? NaN) / 60_000;
    const pairs = run.results.map((r) => r.rounds.length).sort((a, b) => a - b);
    const decidedCells = ratios.filter((c) => isDecided(c.verdict)).length;
    console.log(
      `  ${path}: ${run.options.measurer ?? '?'}, ${run.variants.length} arms, ${(minutes * 60).toFixed(0)} s, rounds per arm ${pairs[0]}–${pairs.at(-1)}: ` +
        `${ratios.length}/${cells.length} cells with an interval, median half-width ±${pct(halfWidths[Math.floor(halfWidths.length / 2)] ?? NaN, 1)}, ` +
        `${decidedCells} decided, ${(decidedCells / minutes).toFixed(1)} per minute`,
    );
  }
}

/** The stopping rule against today's design, per noise model: A/A false tables, then the sources' own ratios. */
function stopping(paths: readonly string[], tables: number, design: Omit<DesignOptions, 'budget'> & { budget?: number }, seed: number, arms: 2 | 'all'): void {
  const sources = paths.map((p) => components(readRun(p))).map((s) => (arms === 2 ? firstCandidate(s) : s));
  for (const s of sources) console.log(`  source: ${s.cells.length} cells in ${s.cases.length} cases, ${s.standardized.length} units, median unit sd ${pct([...s.sd].sort((a, b) => a - b)[Math.floor(s.sd.length / 2)]!, 2)}`);
  const random = createRandom(seed);
  // Resampling a few units with replacement repeats them, which narrows the spread a table sees: only from sources of 20 units or more.
  const noises: Noise[] = ['t4', 't4-arms', ...(sources.every((s) => s.standardized.length >= 20) ? (['resampled'] as const) : [])];
  for (const noise of noises) {
    const runs = {
      fixed: (i: number, effects: number[]): TableOutcome => fixedTable(sources[i]!, noise, effects, opts(i), random),
      anytime: (i: number, effects: number[]): TableOutcome => stoppedTable(sources[i]!, noise, effects, opts(i), random, 'anytime'),
      peeking: (i: number, effects: number[]): TableOutcome => stoppedTable(sources[i]!, noise, effects, opts(i), random, 'peeking'),
    };
    function opts(i: number): DesignOptions {
      return { ...design, budget: design.budget ?? design.fixedRounds * sources[i]!.cases.length };
    }
    for (const [name, run] of Object.entries(runs)) {
      let falseTables = 0;
      let spent = 0;
      for (let t = 0; t < tables; t++) {
        const i = t % sources.length;
        const out = run(i, sources[i]!.cells.map(() => 0));
        if (out.verdicts.some((v) => isDecided(v))) falseTables++;
        spent += out.caseRounds;
      }
      console.log(`${noise} A/A, ${name}: ${falseTables}/${tables} tables with a decided cell (${pct(falseTables / tables, 1)} ± ${pct(mcError(falseTables, tables), 1)}), ${(spent / tables).toFixed(1)} case-rounds per table`);
    }
    for (const name of ['fixed', 'anytime'] as const) {
      let decided = 0;
      let wrong = 0;
      let cells = 0;
      let spent = 0;
      const n = Math.max(100, tables / 10);
      for (let t = 0; t < n; t++) {
        const i = t % sources.length;
        const src = sources[i]!;
        const out = runs[name](i, src.mean);
        out.verdicts.forEach((v, c) => {
          cells++;
          if (v !== 'inconclusive') decided++;
          const d = direction(v, Math.exp(src.mean[c]!));
          if (d !== 0 && d !== Math.sign(src.mean[c]!)) wrong++;
        });
        spent += out.caseRounds;
      }
      console.log(`${noise} at the sources' ratios, ${name}: ${(decided / n).toFixed(1)} of ${(cells / n).toFixed(0)} cells decided per table, ${wrong} words against the true direction in ${n} tables, ${(spent / n).toFixed(1)} case-rounds per table`);
    }
  }
}

/**
 * The prior precision whose sequence is narrowest at `horizon` units for a
 * table of m cells read before any is selected (error α/m): a golden-section
 * search over log c.
 */
function tunedPrior(horizon: number, m: number): number {
  const width = (logC: number): number => anytimeHalfWidth(horizon, horizon - 1, 1 - 0.05 / m, Math.exp(logC));
  let [lo, hi] = [Math.log(0.01), Math.log(10)];
  const g = (Math.sqrt(5) - 1) / 2;
  for (let i = 0; i < 60; i++) {
    const a = hi - g * (hi - lo);
    const b = lo + g * (hi - lo);
    if (width(a) < width(b)) hi = b;
    else lo = a;
  }
  return Math.exp((lo + hi) / 2);
}

/**
 * `--stop decided` under --compare against the fixed 30-set design, by
 * simulation: per source (its first candidate's cells: a comparison of two
 * arms), per true change applied to every cell (and at the source's own
 * ratios), each design's comparisons against independent fixed-design
 * references: the reference's words given, the time as case-rounds, and,
 * at no change, the comparisons with a false word.
 */
function compareStopping(paths: readonly string[], tables: number, effects: readonly number[], priors: readonly (number | 'tuned15' | 'tuned8')[], shares: readonly number[], seed: number): void {
  const random = createRandom(seed);
  // Second references on a stream of their own: the other figures stay those of the same seed without them.
  const repeatRandom = createRandom((seed ^ 0x2ef) >>> 0);
  for (const path of paths) {
    const src = firstCandidate(components(readRun(path)));
    const m = src.cells.length;
    const sds = [...src.sd].sort((a, b) => a - b);
    console.log(`source ${path}: ${m} cells, ${src.standardized.length} units, unit sd ${pct(sds[0]!, 1)}–${pct(sds.at(-1)!, 1)} (median ${pct(sds[Math.floor(m / 2)]!, 1)}), ratios ${src.mean.map((x) => Math.exp(x).toFixed(3)).join(' ')}`);
    const base: DesignOptions = { fixedRounds: 15, minRounds: 5, maxRounds: 15, budget: 15 * src.cases.length, confidence: 0.95, farPair: true };
    const cs = priors.map((p) => (p === 'tuned15' ? tunedPrior(15, m) : p === 'tuned8' ? tunedPrior(8, m) : p));
    for (const effect of [...effects.map((e) => ({ name: `${e}% in every cell`, values: src.cells.map(() => Math.log1p(e / 100)) })), { name: "the source's ratios", values: src.mean }]) {
      const designs: [string, (r: () => number) => TableOutcome][] = [
        ['fixed (a second 30-set run)', (r) => fixedTable(src, 't4', effect.values, base, r)],
        // No look at all, half the pairs: what a design that ends in half the time has to work with.
        ['fixed at 7 pairs (14 sets: under half)', (r) => fixedTable(src, 't4', effect.values, { ...base, fixedRounds: 7 }, r)],
        ...cs.map((c, i): [string, (r: () => number) => TableOutcome] => [`decided, c = ${c.toFixed(3)}${typeof priors[i] === 'string' ? ` (${priors[i]})` : ''}`, (r) => stoppedTable(src, 't4', effect.values, { ...base, priorPrecision: c }, r, 'anytime')]),
        ...shares.map((f): [string, (r: () => number) => TableOutcome] => [`decided, a planned last look at 15 pairs with ${pct(f, 0)} of α`, (r) => stoppedTable(src, 't4', effect.values, { ...base, finalShare: f }, r, 'anytime')]),
        ['peeking at t intervals (invalid: the bound on words)', (r) => stoppedTable(src, 't4', effect.values, base, r, 'peeking')],
      ];
      for (const [name, design] of designs) {
        const t = agreementWithFixed(src, 't4', effect.values, base, tables, random, design, repeatRandom);
        console.log(
          `  ${effect.name}, ${name}: the reference's word on ${t.same} of ${t.decided} cells it decided (${pct(t.same / Math.max(1, t.decided), 1)}), ` +
            `on ${t.sameOnRepeated} of the ${t.repeated} a second reference repeats (${pct(t.sameOnRepeated! / Math.max(1, t.repeated!), 1)}), ` +
            `${(t.caseRounds / t.referenceCaseRounds).toFixed(2)} of its case-rounds (${pct(t.withinHalf / t.comparisons, 0)} of comparisons within half), ` +
            `${t.anyDecided} of ${t.comparisons} with a faster/slower/small word (${pct(t.anyDecided / t.comparisons, 1)})`,
        );
      }
    }
  }
}

/**
 * A run's ratios against its first arm, by "case · variant", as its default
 * view reads them: a --compare run's verdicts (the case's own row, not its
 * quantile rows), a table's "vs" column.
 */
function runRatios(run: RunRecord): Map<string, RatioCell> {
  const view = viewOfRun(run);
  if (view.kind !== 'comparison') return tableRatios(view);
  const out = new Map<string, RatioCell>();
  for (const section of view.sections) {
    for (const row of section.cases) {
      const c = row.comparison;
      if (c && !row.quantile) out.set(`${row.caseId} · ${section.candidate.id}`, { ratio: c.ratio, ci: c.ci, verdict: c.verdict });
    }
  }
  return out;
}

/**
 * n real A/A tables. `extra` is the bench command after `--`: a suite first
 * (json-reviver when it starts with an option), then its flags; without
 * --runtime or --compare, node@26 is every arm of a four-arm table.
 */
function aa(n: number, extra: string[]): void {
  let withVerdict = 0;
  let cells = 0;
  let falseCells = 0;
  const [suite, flags] = extra[0] && !extra[0].startsWith('-') ? [extra[0], extra.slice(1)] : ['json-reviver', extra];
  const runtime = flags.includes('--runtime') || flags.includes('--compare') ? [] : ['--runtime', 'node@26,node@26,node@26,node@26'];
  for (let i = 1; i <= n; i++) {
    const before = loadText();
    const r = benchRun([suite, ...runtime, ...flags]);
    const table = runRatios(r.run);
    const wrong = [...table].filter(([, c]) => isDecided(c.verdict));
    cells += table.size;
    falseCells += wrong.length;
    if (wrong.length) withVerdict++;
    console.log(`  table ${i}: ${(r.wallMs / 1000).toFixed(0)} s, ${wrong.length}/${table.size} cells decided${wrong.length ? ` (${wrong.map(([k, c]) => `${k} ${c.verdict} ${ratioText(c)}`).join('; ')})` : ''}, ${statisticText(r.run)}, load ${before} → ${loadText()}, saved ${r.path}`);
  }
  console.log(`A/A: ${withVerdict} of ${n} tables with any decided cell (${pct(withVerdict / n, 1)} ± ${pct(mcError(withVerdict, n), 1)}), ${falseCells} of ${cells} cells`);
}

/**
 * A design against a reference design of the same comparison: of the cells
 * the reference decides (any word but inconclusive), how many each run gives
 * the same word, how many it leaves undecided or words otherwise, and its
 * wall time against the reference's.
 */
function sameVerdicts(referencePath: string, paths: readonly string[]): void {
  const refRun = readRun(referencePath);
  const reference = runRatios(refRun);
  const decided = [...reference].filter(([, c]) => c.verdict !== 'inconclusive');
  const refSeconds = (refRun.timing?.wallMs ?? NaN) / 1000;
  console.log(`reference ${referencePath}: ${refSeconds.toFixed(1)} s, ${decided.length} of ${reference.size} cells decided`);
  for (const path of paths) {
    const run = readRun(path);
    const cells = runRatios(run);
    const seconds = (run.timing?.wallMs ?? NaN) / 1000;
    const differ: string[] = [];
    let same = 0;
    for (const [key, ref] of decided) {
      const c = cells.get(key);
      if (c?.verdict === ref.verdict) same++;
      else differ.push(`${key}: ${c ? `${c.verdict} ${ratioText(c)}` : 'absent'} against the reference's ${ref.verdict} ${ratioText(ref)}`);
    }
    const extra = [...cells].filter(([key, c]) => c.verdict !== 'inconclusive' && reference.get(key)?.verdict === 'inconclusive').length;
    console.log(
      `  ${path}: ${seconds.toFixed(1)} s (${(seconds / refSeconds).toFixed(2)} of the reference's), ` +
        `the same word on ${same} of ${decided.length} cells the reference decides (${pct(same / Math.max(1, decided.length), 0)}), ` +
        `${extra} cells decided that the reference leaves inconclusive`,
    );
    for (const line of differ) console.log(`    differs: ${line}`);
  }
}

/** The default table's source run for a calibration: 24 process pairs, one set per process (docs/measurements/comparing.md's reference). */
const SOURCE_RUN = ['json-reviver', '--rounds', '24', '--max-rounds', '24', '--sets-per-process', '1', '--time', '1280ms', '--max-time', '900s'];
/** A default table from before samples were grown (every cell by medians), the stopping rule's figures were taken from (docs/measurements/stopping.md). */
const BEFORE_RUN = 'results/20261124-080039Z-json-reviver.json';

/** The simulated A/A rate at the default design's 5, 6 and 7 pairs, and the stopping rule's, from one source. */
function calibrationOf(path: string, tables: number, seed: number): void {
  const run = readRun(path);
  console.log(`source ${path}: ${statisticText(run)}`);
  // Drawing 7 of a default table's 6 pairs says nothing: a source of a default table gives the stopping rule's figures alone.
  const units = Math.min(...run.results.map((r) => r.rounds.length));
  if (units < 12) console.log(`  simulated: not from ${units} pairs (a source needs 12 or more: SOURCE_RUN's 24)`);
  for (const g of units < 12 ? [] : [5, 6, 7]) {
    const s = simulate([path], g, tables, seed);
    console.log(`  simulated, ${g} pairs${g === 6 ? ' (the default)' : ''}: A/A ${s.falseTables}/${s.tables} tables with a decided cell (${pct(s.falseTables / s.tables, 1)} ± ${pct(mcError(s.falseTables, s.tables), 1)})`);
  }
  stopping([path], Math.min(tables, 2000), { fixedRounds: 6, minRounds: 4, maxRounds: 30, confidence: 0.95 }, seed, 'all');
}

/**
 * What depends on the headline statistic, in one command: a source run of
 * the default table (unless --source names one), then the simulated A/A rate
 * and the stopping rule's from it, beside the reference's.
 */
function recalibrate(source: string | undefined, before: string, tables: number, seed: number, extra: readonly string[]): void {
  let path = source;
  if (!path) {
    const started = loadText();
    const r = benchRun([...SOURCE_RUN, ...extra]);
    console.log(`source run: pnpm bench ${[...SOURCE_RUN, ...extra].join(' ')}: ${(r.wallMs / 1000).toFixed(0)} s, exit ${r.status}, load ${started} → ${loadText()}, saved ${r.path}`);
    path = r.path;
  }
  console.log('now:');
  calibrationOf(path, tables, seed);
  console.log('before (a default table from before samples were grown):');
  calibrationOf(before, tables, seed);
}

const { command, rest, flag, files, benchArgs } = calibrationArgs();
console.log(`${new Date().toISOString()}  ${machineSpeedText()}`);
if (command === 'simulate' && !files.length) {
  console.error('simulate: name at least one saved run (a table of A/A noise to draw units from)');
  process.exitCode = 2;
} else if (command === 'simulate') {
  const tables = flag('--tables', 2000);
  for (const path of files) console.log(`source ${path}: ${statisticText(readRun(path))}`);
  for (const g of rest.includes('--units') ? [flag('--units', 5)] : [3, 5, 8]) {
    const s = simulate(files, g, tables, flag('--seed', 1));
    const power = [...s.power].map(([ratio, p]) => `${ratio}×: ${pct(p.right / p.cells, 0)}${p.wrong ? ` (${p.wrong} the wrong way)` : ''}`).join(', ');
    const powerAll = [...s.powerAll].map(([ratio, p]) => `${ratio}×: ${pct(p.right / p.cells, 0)}${p.wrong ? ` (${p.wrong} the wrong way)` : ''}`).join(', ');
    console.log(`${g} units: A/A ${s.falseTables}/${s.tables} tables with a decided cell (${pct(s.falseTables / s.tables, 1)} ± ${pct(mcError(s.falseTables, s.tables), 1)}); one cell among nulls decided at ${power}; every cell changed, decided at ${powerAll}`);
  }
} else if (command === 'stopping' && !files.length) {
  console.error('stopping: name at least one saved run (a table to draw variance components from)');
  process.exitCode = 2;
} else if (command === 'stopping') {
  const budget = flag('--budget', NaN);
  const design = { fixedRounds: flag('--fixed-rounds', 6), minRounds: flag('--min-rounds', 4), maxRounds: flag('--max-rounds', 30), confidence: 0.95, ...(Number.isFinite(budget) ? { budget } : {}), ...(rest.includes('--far-pair') ? { farPair: true } : {}) };
  stopping(files, flag('--tables', 2000), design, flag('--seed', 1), flag('--arms', 0) === 2 ? 2 : 'all');
} else if (command === 'compare-stopping' && files.length) {
  const list = (name: string, fallback: string): string[] => (rest.includes(name) ? rest[rest.indexOf(name) + 1]! : fallback).split(',');
  const priors = list('--priors', '0.1,tuned15,tuned8').map((p) => (p === 'tuned15' || p === 'tuned8' ? p : Number(p)));
  compareStopping(files, flag('--tables', 2000), list('--effects', '0,1,2,3').map(Number), priors, list('--final-shares', '0.8').map(Number), flag('--seed', 1));
} else if (command === 'recalibrate') {
  const named = (name: string): string | undefined => (rest.includes(name) ? rest[rest.indexOf(name) + 1] : undefined);
  recalibrate(named('--source'), named('--before') ?? BEFORE_RUN, flag('--tables', 3000), flag('--seed', 1), benchArgs);
} else if (command === 'aa') {
  aa(Number(rest[0] ?? 40), benchArgs);
} else if (command === 'words') {
  words(rest);
} else if (command === 'widths') {
  widths(rest);
} else if (command === 'same-verdicts') {
  sameVerdicts(rest[0]!, rest.slice(1));
} else if (command === 'agree') {
  agree(rest[0]!, rest.slice(1));
} else {
  console.error('usage: verdict-calibration.ts simulate <run.json…> [--units g] [--tables n] | stopping <run.json…> [--tables n] [--min-rounds r] [--fixed-rounds r] [--max-rounds r] [--budget case-rounds] [--arms 2] [--far-pair] | compare-stopping <run.json…> [--tables n] [--effects 0,1,2,3] [--priors 0.1,tuned15,tuned8] [--final-shares 0.8] | aa <n> [-- [suite] bench args] | recalibrate [--source run.json] [--before run.json] [--tables n] [-- bench args] | same-verdicts <reference.json> <run.json…> | words <run.json…> | widths <run.json…> | agree <reference.json> <run.json…>');
  process.exitCode = 2;
}
