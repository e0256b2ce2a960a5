/**
 * The stopping rule by simulation (verdict-calibration.ts `stopping`): tables
 * drawn from saved runs' variance components, run round by round under each
 * design, and what each design's final table says.
 *
 * A source run gives, per cell (case × candidate against the first variant),
 * the spread of its units' mean log ratios (the between-process-pair
 * variance component) and its mean. A simulated unit gives every cell
 * σ_cell · ε + effect, ε drawn per unit and cell: Student t with 4 degrees
 * of freedom scaled to unit variance (heavier tails than the normal the
 * sequence assumes); 't4-arms': the same t noise drawn per arm, each cell
 * the candidate's draw less the baseline's, both scaled by σ_cell/√2, so a
 * case's cells share their baseline's noise as a table of one runtime on
 * every arm does (correlation ½ between its ratios); or 'resampled': one of
 * the source's own standardized unit vectors across cells (keeping their
 * correlation) with its sign turned at random per variant. Designs:
 *   fixed     today's default: every case gets `fixedRounds` units, t
 *             intervals at the BH level (applyFdr), no look in between;
 *   anytime   at least `minRounds`, then after each round every cell looked
 *             at on its confidence sequence at the e-BH level (verdicts'
 *             lookByCase); a case goes on while a cell of it is open, the
 *             closest to a word first, within `maxRounds` per case and a
 *             budget of case-rounds; the table read by applyEbh;
 *   peeking   the same stopping with the fixed t/BH reading at each look
 *             (the trap the sequences avoid).
 * Cost is counted in case-rounds (one unit of one case on every arm), the
 * unit a lockstep set's time grows with.
 */
import type { RunRecord } from '@rtbench/core/schema';
import { applyEbh, applyFdr, comparePaired, pairRounds, withoutFarthestUnit, type Comparison } from '../../../packages/stats/src/index.ts';
import { pairable } from '../../../packages/measurer-records/src/index.ts';
import { lookByCase, unitsToNextWord, type CellState } from '../../../packages/verdicts/src/index.ts';

/** A source run's cells: their spread and mean over units, and its standardized unit vectors. */
export interface Components {
  cells: string[];
  /** The case each cell belongs to (index into `cases`). */
  caseOf: number[];
  cases: string[];
  variantOf: number[];
  sd: number[];
  mean: number[];
  /** Per unit, every cell's (value − mean)/sd. */
  standardized: number[][];
}

/**
 * A cell's mean log ratio (candidate over baseline) per independent unit: its process pair, or,
 * without process labels, its round. Units are keyed by their order in time ("unit k": the k-th
 * process pair to serve the cell, or its k-th round), not by their labels: under a case's own
 * processes no two cases share a process, and the k-th pair of every case ran in the same stretch
 * of the run, so drawing "unit k" for every cell keeps the cells' correlation in time as drawing a
 * shared process did.
 */
export function unitLogRatios(baseline: Parameters<typeof pairRounds>[0], candidate: Parameters<typeof pairRounds>[1]): Map<string, number> {
  const pairs = pairRounds(baseline, candidate);
  const ordinal = new Map<string, string>();
  const sums = new Map<string, { s: number; n: number }>();
  pairs.baseline.forEach((b, i) => {
    const d = Math.log(pairs.candidate[i]! / b);
    if (!Number.isFinite(d)) return;
    const label = pairs.units?.[i] ?? `round ${pairs.rounds[i]}`;
    if (!ordinal.has(label)) ordinal.set(label, `unit ${ordinal.size}`);
    const key = ordinal.get(label)!;
    const e = sums.get(key) ?? { s: 0, n: 0 };
    e.s += d;
    e.n++;
    sums.set(key, e);
  });
  return new Map([...sums].map(([k, e]) => [k, e.s / e.n]));
}

/** Per cell, the mean log ratio of each unit (process pair, or round without process labels). */
export function components(run: RunRecord): Components {
  const baseline = run.variants[0]!.id;
  const candidates = run.variants.slice(1).map((v) => v.id);
  const byCell = new Map<string, { caseIndex: number; variant: number; units: Map<string, number> }>();
  run.cases.forEach((c, caseIndex) => {
    const base = run.results.find((r) => r.caseId === c.id && r.variantId === baseline);
    candidates.forEach((v, variant) => {
      const cand = run.results.find((r) => r.caseId === c.id && r.variantId === v);
      if (!base || !cand || base.status !== 'ok' || cand.status !== 'ok') return;
      const units = unitLogRatios(base.rounds.map(pairable), cand.rounds.map(pairable));
      if (units.size >= 3) byCell.set(`${c.id} · ${v}`, { caseIndex, variant, units });
    });
  });
  const cells = [...byCell.keys()];
  const units = [...byCell.get(cells[0]!)!.units.keys()].filter((u) => cells.every((c) => byCell.get(c)!.units.has(u)));
  const mean: number[] = [];
  const sd: number[] = [];
  const columns = cells.map((key) => {
    const v = units.map((u) => byCell.get(key)!.units.get(u)!);
    const m = v.reduce((a, b) => a + b, 0) / v.length;
    const s = Math.sqrt(v.reduce((a, x) => a + (x - m) ** 2, 0) / (v.length - 1));
    mean.push(m);
    sd.push(s);
    return v.map((x) => (s > 0 ? (x - m) / s : 0));
  });
  const caseIds = [...new Set(cells.map((k) => byCell.get(k)!.caseIndex))];
  return {
    cells,
    cases: caseIds.map((i) => run.cases[i]!.id),
    caseOf: cells.map((k) => caseIds.indexOf(byCell.get(k)!.caseIndex)),
    variantOf: cells.map((k) => byCell.get(k)!.variant),
    sd,
    mean,
    standardized: units.map((_, u) => columns.map((col) => col[u]!)),
  };
}

/** The source's cells of its first candidate alone: a table of two arms (one runtime as both, in an A/A). */
export function firstCandidate(src: Components): Components {
  const keep = src.cells.map((_, i) => i).filter((i) => src.variantOf[i] === 0);
  return {
    ...src,
    cells: keep.map((i) => src.cells[i]!),
    caseOf: keep.map((i) => src.caseOf[i]!),
    variantOf: keep.map(() => 0),
    sd: keep.map((i) => src.sd[i]!),
    mean: keep.map((i) => src.mean[i]!),
    standardized: src.standardized.map((u) => keep.map((i) => u[i]!)),
  };
}

export type Noise = 't4' | 't4-arms' | 'resampled';

export interface DesignOptions {
  fixedRounds: number;
  minRounds: number;
  maxRounds: number;
  /** Case-rounds the anytime design may spend in all. */
  budget: number;
  confidence: number;
  /** Each cell also projected without its farthest unit (verdicts' CaseCell.steadier): a comparison's rule, not a table's. */
  farPair?: boolean;
  /** The confidence sequences' prior precision (stats' default when absent). */
  priorPrecision?: number | undefined;
  /**
   * A planned last look: this share of the error rate is kept for t
   * intervals at `maxRounds` (the fixed design's horizon), the rest spent by
   * the sequences at every look; a cell the sequence leaves undecided goes on
   * while the t interval at the horizon would decide it.
   */
  finalShare?: number;
}

export interface TableOutcome {
  verdicts: Comparison['verdict'][];
  caseRounds: number;
}

/** Draws units for one simulated table: `unit()` gives every cell's log ratio for one more unit. */
export function unitSource(src: Components, noise: Noise, effects: readonly number[], random: () => number): () => number[] {
  const normal = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  // Student t, 4 df, scaled to variance 1 (its variance is ν/(ν−2) = 2).
  const t4 = (): number => {
    let chi = 0;
    for (let i = 0; i < 4; i++) chi += normal() ** 2;
    return normal() / Math.sqrt(chi / 4) / Math.SQRT2;
  };
  const variants = Math.max(...src.variantOf) + 1;
  return () => {
    if (noise === 't4') return src.sd.map((s, i) => s * t4() + effects[i]!);
    if (noise === 't4-arms') {
      // Per case, the baseline's draw and one per candidate: a cell's variance is σ²/2 + σ²/2.
      const arms = src.cases.map(() => Array.from({ length: variants + 1 }, t4));
      return src.sd.map((s, i) => (s * (arms[src.caseOf[i]!]![src.variantOf[i]! + 1]! - arms[src.caseOf[i]!]![0]!)) / Math.SQRT2 + effects[i]!);
    }
    const v = src.standardized[Math.floor(random() * src.standardized.length)]!;
    const sign = Array.from({ length: variants }, () => (random() < 0.5 ? -1 : 1));
    return src.sd.map((s, i) => s * sign[src.variantOf[i]!]! * v[i]! + effects[i]!);
  };
}

const compare = (values: readonly number[]): Comparison => comparePaired(values.map(() => 1), values.map(Math.exp));

/** One table under the fixed design: every case `fixedRounds` units, read at the BH level. */
export function fixedTable(src: Components, noise: Noise, effects: readonly number[], o: DesignOptions, random: () => number): TableOutcome {
  const draw = unitSource(src, noise, effects, random);
  const values: number[][] = src.cells.map(() => []);
  for (let r = 0; r < o.fixedRounds; r++) draw().forEach((x, i) => values[i]!.push(x));
  return { verdicts: applyFdr(values.map(compare), { alpha: 1 - o.confidence }).map((c) => c.verdict), caseRounds: o.fixedRounds * src.cases.length };
}

/**
 * One table under the stopping rule. `reading`: 'anytime' (the sequences and
 * e-BH, the rule as built) or 'peeking' (t intervals and BH at each look).
 */
export function stoppedTable(src: Components, noise: Noise, effects: readonly number[], o: DesignOptions, random: () => number, reading: 'anytime' | 'peeking'): TableOutcome {
  const draw = unitSource(src, noise, effects, random);
  const values: number[][] = src.cells.map(() => []);
  const rounds = src.cases.map(() => 0);
  let spent = 0;
  const runCase = (k: number, unit: number[]): void => {
    src.cells.forEach((_, i) => {
      if (src.caseOf[i] === k) values[i]!.push(unit[i]!);
    });
    rounds[k]!++;
    spent++;
  };
  for (let r = 0; r < o.minRounds; r++) {
    const unit = draw();
    src.cases.forEach((_, k) => runCase(k, unit));
  }
  const alpha = 1 - o.confidence;
  const share = o.finalShare ?? 0;
  const fdr = { alpha: alpha * (1 - share), priorPrecision: o.priorPrecision };
  const sequences = (): Comparison[] => (reading === 'anytime' ? applyEbh : applyFdr)(values.map(compare), fdr);
  // The planned last look: t intervals at the BH level of the share kept, over the cells at the horizon the sequences leave undecided (the others count as not selected).
  const lastLook = (seq: readonly Comparison[]): Comparison[] => {
    const at = (i: number): boolean => seq[i]!.verdict === 'inconclusive' && values[i]!.length >= o.maxRounds;
    return applyFdr(values.map((v, i) => (at(i) ? compare(v) : { ...compare(v), pValue: 1 })), { alpha: alpha * share }).map((c, i) => (at(i) ? c : seq[i]!));
  };
  const read = (): Comparison[] => (share > 0 ? lastLook(sequences()) : sequences());
  // Cases still worth rounds for the last look: a cell undecided, short of the horizon, and a t interval there would decide it (its mean and spread held).
  const lastLookOpen = (): boolean[] => {
    if (!(share > 0)) return src.cases.map(() => false);
    const seq = sequences();
    const t = applyFdr(values.map(compare), { alpha: alpha * share });
    const open = src.cases.map(() => false);
    src.cells.forEach((_, i) => {
      const k = src.caseOf[i]!;
      if (rounds[k]! < o.maxRounds && seq[i]!.verdict === 'inconclusive' && (t[i]!.verdict !== 'inconclusive' || (t[i]!.unitsToDecide ?? Infinity) <= o.maxRounds)) open[k] = true;
    });
    return open;
  };
  // A case's reach: its rounds so far plus its share of the budget left among the cases still open.
  const reachableRounds = (k: number, open: number): number => rounds[k]! + Math.floor((o.budget - spent) / Math.max(1, open));
  for (;;) {
    let lastOpen: boolean[] | undefined;
    const looks =
      reading === 'anytime'
        ? lookByCase(values.map((v, i) => ({ caseIndex: src.caseOf[i]!, comparison: compare(v), ...(o.farPair ? { steadier: withoutFarthestUnit(v) } : {}) })), src.cases.length, { confidence: 1 - fdr.alpha, maxRounds: o.maxRounds, reachableRounds, priorPrecision: o.priorPrecision }).map((look, k) => (look.next === undefined && (lastOpen ??= lastLookOpen())[k] ? { ...look, next: o.maxRounds - rounds[k]! } : look))
        : peekByCase(read(), src.caseOf, src.cases.length);
    const open = looks
      .map((look, k) => ({ k, next: look.next }))
      .filter((c) => c.next !== undefined && rounds[c.k]! < o.maxRounds)
      .sort((a, b) => a.next! - b.next!);
    if (!open.length || spent >= o.budget) break;
    const unit = draw();
    for (const { k } of open) {
      if (spent >= o.budget) break;
      runCase(k, unit);
    }
  }
  return { verdicts: read().map((c) => c.verdict), caseRounds: spent };
}

/** Stopping on peeks: a case goes on while a cell of it reads inconclusive at the BH level, whatever the budget left. */
function peekByCase(read: readonly Comparison[], caseOf: readonly number[], cases: number): { next: number | undefined }[] {
  return Array.from({ length: cases }, (_, k) => ({ next: unitsToNextWord(read.flatMap((c, i): CellState[] => (caseOf[i] === k && c.verdict === 'inconclusive' ? [{ state: 'open', units: c.units }] : []))) }));
}

/** Which way a word points: +1 slower, −1 faster, 0 none. */
export function direction(verdict: Comparison['verdict'], ratio: number): number {
  if (verdict === 'slower' || verdict === 'faster' || verdict === 'small') return Math.sign(Math.log(ratio));
  return 0;
}


/** A comparison's outcome against the fixed design's: of the cells the reference decides, how many this table words the same. */
export function sameWords(reference: readonly Comparison['verdict'][], run: readonly Comparison['verdict'][]): { decided: number; same: number } {
  let decided = 0;
  let same = 0;
  reference.forEach((v, i) => {
    if (v === 'inconclusive') return;
    decided++;
    if (run[i] === v) same++;
  });
  return { decided, same };
}

/** What one design gave against independent fixed-design references over many simulated comparisons. */
export interface AgreementTally {
  comparisons: number;
  /** Cells the references decided, and those the design worded the same. */
  decided: number;
  same: number;
  /** Case-rounds summed over the design's comparisons and over the references'. */
  caseRounds: number;
  referenceCaseRounds: number;
  /** Comparisons that took at most half their reference's case-rounds. */
  withinHalf: number;
  /** Comparisons with a cell read faster, slower or small (false when every effect is 0). */
  anyDecided: number;
  /**
   * With a second reference: the cells whose word it repeats (the first
   * reference's word, decided), and those the design worded the same. A
   * word a second 30-set run does not repeat is one no design can be
   * expected to give.
   */
  repeated?: number;
  sameOnRepeated?: number;
}

/**
 * A design against the fixed design as a user meets it: each simulated
 * comparison is the design's table and an independent fixed-design table
 * (a reference run before it), the same cells at the same effects; the
 * fixed design against a second fixed table is the ceiling no design passes.
 */
export function agreementWithFixed(src: Components, noise: Noise, effects: readonly number[], o: DesignOptions, comparisons: number, random: () => number, design: (random: () => number) => TableOutcome, secondReference?: () => number): AgreementTally {
  const tally: AgreementTally = { comparisons, decided: 0, same: 0, caseRounds: 0, referenceCaseRounds: 0, withinHalf: 0, anyDecided: 0, ...(secondReference ? { repeated: 0, sameOnRepeated: 0 } : {}) };
  for (let i = 0; i < comparisons; i++) {
    const reference = fixedTable(src, noise, effects, o, random);
    const run = design(random);
    // The second reference draws from its own stream, so the first reference's and the design's draws are as without it.
    if (secondReference) {
      const second = fixedTable(src, noise, effects, o, secondReference).verdicts;
      const repeats = reference.verdicts.map((v, c) => (second[c] === v ? v : 'inconclusive'));
      const r = sameWords(repeats, run.verdicts);
      tally.repeated! += r.decided;
      tally.sameOnRepeated! += r.same;
    }
    const w = sameWords(reference.verdicts, run.verdicts);
    tally.decided += w.decided;
    tally.same += w.same;
    tally.caseRounds += run.caseRounds;
    tally.referenceCaseRounds += reference.caseRounds;
    if (run.caseRounds <= reference.caseRounds / 2) tally.withinHalf++;
    if (run.verdicts.some((v) => v === 'faster' || v === 'slower' || v === 'small')) tally.anyDecided++;
  }
  return tally;
}
