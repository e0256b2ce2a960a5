/**
 * The first walk of a history, over numbers: every neighbour comparison's
 * p-value (no interval read) into the FDR step, and, with a window, the runs
 * it shows. Points come in run order, each with its series' index and its
 * arm summary (a few numbers); per series only the previous point is held,
 * with, per run, the run the series was last compared from (an Int32Array),
 * so the points a window shows can be built afterwards from the few runs
 * they read. The same walk serves a history of runs held in memory
 * (report's history view) and one read from a results store through a
 * cursor that never holds a run's rows, so both decide alike.
 */
import { fdrStep, type FdrStep } from '@rtbench/stats';
import { decidedDirection } from './change-points.ts';
import { compareSummaries, summariesPValue, type ArmSummary, type RatioOptions } from './ratios.ts';

/** What the first walk decided: the step every point is read at, how many comparisons it counts, and with a window the runs shown. */
export interface WalkedHistory {
  step: FdrStep;
  m: number;
  /** The newest `last` runs and those each change point is at or compared with (absent: every run). */
  shown?: Set<number>;
  /** Every run a shown point reads: the shown runs and each of their series' previous point's run. */
  read?: Set<number>;
}

/** A series as the first walk met it: its suite, case and variant, and the first run it has a point in. */
export interface WalkedSeries {
  suite: string;
  caseId: string;
  variantId: string;
  firstRun: number;
}

/**
 * A history's first walk made apart from its view (a results store's cursor
 * over its numeric columns): what it decided, and every series it met, in
 * the order each first appeared.
 */
export interface PrewalkedHistory {
  walked: WalkedHistory;
  series: WalkedSeries[];
}

/** A neighbour comparison's p-value: null when the pair has none (other work, or an arm without moments: summariesPValue). */
export type NeighbourPValue = number | null;

/**
 * A point's arm as the walk takes it: read only when a comparison needs it
 * (its p-value not given, or p ≤ α, a candidate change point). A store's
 * cursor passes its packed numbers this way: with the p-values stored, a walk
 * of ten thousand runs reads the arms of the few points that can change.
 */
export interface ArmReading {
  summary(): ArmSummary;
}

/** An arm already read, as an ArmReading. */
export const armRead = (arm: ArmSummary): ArmReading => ({ summary: () => arm });

/** A comparison the FDR step may select, kept with its arms until the step is over. */
interface Candidate {
  run: number;
  from: number;
  p: number;
  pair: [ArmReading, ArmReading];
}

/**
 * A walk's state after its first `runs` runs, everything a walk over runs
 * that extend them needs to go on as if it had walked them itself (a results
 * store keeps it, walk-checkpoint.ts): the p-values so far, the candidates
 * with their arms, and per series its last arm and each run's previous run.
 */
export interface WalkSnapshot {
  runs: number;
  /** In ascending order: the FDR step reads them as a set, and a walk resumed from them sorts only the ones it adds. */
  pValues: Float64Array;
  /** The comparisons at p ≤ α, with their arms as readings: a walk reads the arms of the few its step decides. */
  candidates: { run: number; from: number; p: number; pair: [ArmReading, ArmReading] }[];
  /** Per series (as many as the walk met): its last point with an arm, as its run (−1: none) and that arm. */
  lastPointRun: Int32Array;
  lastArm: (ArmSummary | undefined)[];
  /** Per series, per run of the `runs`: the run of the series' last point with an arm before it, −1 for none. */
  previous: Int32Array[];
}

/**
 * A comparison's interval at the step's level excludes 1 exactly when its
 * p-value is at most 1 − level (one t gives both), and a change point's
 * interval excludes 1: a candidate beyond that is not read at the level (a t
 * quantile each). The margin leaves those at the boundary to the reading.
 */
const BEYOND_LEVEL = 1 + 1e-6;

export class ChangeWalk {
  private pValues: Float64Array<ArrayBufferLike> = new Float64Array(1024);
  private m = 0;
  /** How many of the first p-values are in ascending order (a resumed walk's kept ones). */
  private ascendingUpTo = 0;
  private readonly candidates: Candidate[] = [];
  /** Per series: its last point with an arm, as its run and that arm (absent: none yet), kept in place: no object a point. */
  private readonly lastPointRun: number[] = [];
  private readonly lastArm: ArmReading[] = [];
  /** Per series, per run: the run of the series' last point with an arm before it, −1 for none. */
  private readonly previous: Int32Array[] = [];
  private readonly alpha: number;

  /** `runs`: how many runs, indexed 0…runs−1 in order; `last`: the window's newest runs (absent: every run shown). */
  constructor(private readonly runs: number, private readonly options: RatioOptions, private readonly lastRuns?: number) {
    this.alpha = 1 - options.confidence;
  }

  /**
   * A walk over `runs` runs that goes on from `snapshot`, made by a walk over
   * the first `snapshot.runs` of them with the same options and window
   * (with a window, the candidates were kept; without, none were). The walk
   * takes the snapshot's arrays as its own where it adds no run: the
   * snapshot is not to be read after.
   */
  static resumed(snapshot: WalkSnapshot, runs: number, options: RatioOptions, lastRuns?: number): ChangeWalk {
    if (runs < snapshot.runs) throw new RangeError(`a walk of ${runs} runs cannot go on from one of ${snapshot.runs}`);
    const walk = new ChangeWalk(runs, options, lastRuns);
    const added = runs - snapshot.runs;
    walk.m = snapshot.pValues.length;
    if (added === 0) walk.pValues = snapshot.pValues;
    else {
      // Room for the runs after it: a new run adds at most a comparison a series.
      walk.pValues = new Float64Array(walk.m + added * snapshot.previous.length + 1024);
      walk.pValues.set(snapshot.pValues);
    }
    walk.ascendingUpTo = walk.m;
    if (lastRuns !== undefined) walk.candidates.push(...snapshot.candidates);
    snapshot.lastPointRun.forEach((run, series) => {
      const arm = snapshot.lastArm[series];
      if (run < 0 || !arm) return;
      walk.lastPointRun[series] = run;
      walk.lastArm[series] = armRead(arm);
    });
    snapshot.previous.forEach((kept, series) => {
      if (added === 0) return void (walk.previous[series] = kept);
      const previous = new Int32Array(runs).fill(-1);
      previous.set(kept.subarray(0, snapshot.runs));
      walk.previous[series] = previous;
    });
    return walk;
  }

  /** The walk's state once every point of its runs was added, to go on from with `resumed`; its arrays are the walk's own, to be read before the walk goes on. */
  snapshot(): WalkSnapshot {
    const runs = this.runs;
    const series = this.previous.length;
    const lastPointRun = new Int32Array(series).fill(-1);
    const lastArm: (ArmSummary | undefined)[] = [];
    for (let s = 0; s < series; s++) {
      lastPointRun[s] = this.lastRun(s);
      lastArm.push(this.lastArm[s]?.summary());
    }
    return {
      runs,
      pValues: this.ascending(),
      candidates: [...this.candidates],
      lastPointRun,
      lastArm,
      previous: Array.from({ length: series }, (_, s) => this.previous[s]?.subarray(0, runs) ?? new Int32Array(runs).fill(-1)),
    };
  }

  /** The run of series `series`' last point with an arm so far: the run its next point is compared from (−1: none yet). */
  lastRun(series: number): number {
    return this.lastPointRun[series] ?? -1;
  }

  /**
   * A point of series `series` at run `run` (runs in order), with the arm it
   * is compared by (absent: no figure or no arm, never compared). `known`:
   * its comparison's p-value as computed before (a results store keeps them
   * by the pair of runs), null for a pair without one; absent, it is
   * computed here. Returns what it computed (undefined: it compared nothing,
   * or was given it).
   */
  add(series: number, run: number, arm: ArmReading | undefined, known?: NeighbourPValue): NeighbourPValue | undefined {
    let previous = this.previous[series];
    if (!previous) {
      previous = new Int32Array(this.runs).fill(-1);
      this.previous[series] = previous;
    }
    const beforeRun = this.lastRun(series);
    if (beforeRun >= 0) previous[run] = beforeRun;
    if (!arm) return undefined;
    const beforeArm = this.lastArm[series];
    this.lastPointRun[series] = run;
    this.lastArm[series] = arm;
    if (!beforeArm) return undefined;
    const p = known !== undefined ? known : (summariesPValue(beforeArm.summary(), arm.summary()) ?? null);
    this.compared(run, { run: beforeRun, arm: beforeArm }, arm, p);
    return known === undefined ? p : undefined;
  }

  private compared(run: number, before: { run: number; arm: ArmReading }, arm: ArmReading, p: NeighbourPValue): void {
    if (p === null) return;
    if (this.m === this.pValues.length) {
      const grown = new Float64Array(this.m * 2);
      grown.set(this.pValues);
      this.pValues = grown;
    }
    this.pValues[this.m++] = p;
    // BH selects none above α: only these can be change points. Their arms are read now: a cursor's reading holds its
    // whole row, and a walk of ten thousand runs would keep most rows through its candidates.
    if (this.lastRuns !== undefined && p <= this.alpha) this.candidates.push({ run, from: before.run, p, pair: [armRead(before.arm.summary()), armRead(arm.summary())] });
  }

  /**
   * The p-values so far in ascending order, kept so: those added since the
   * last call are sorted alone and merged into the ones already in order,
   * so a walk resumed from ten thousand runs sorts its new runs' few.
   */
  private ascending(): Float64Array {
    const m = this.m;
    const from = this.ascendingUpTo;
    if (from < m) {
      const added = this.pValues.slice(from, m).sort();
      const merged = new Float64Array(this.pValues.length);
      let i = 0;
      let j = 0;
      for (let k = 0; k < m; k++) merged[k] = j >= added.length || (i < from && this.pValues[i]! <= added[j]!) ? this.pValues[i++]! : added[j++]!;
      this.pValues = merged;
      this.ascendingUpTo = m;
    }
    return this.pValues.subarray(0, m);
  }

  finish(): WalkedHistory {
    const step = fdrStep(this.ascending(), { alpha: this.alpha });
    if (this.lastRuns === undefined || this.lastRuns >= this.runs) return { step, m: this.m };
    const shown = new Set<number>();
    for (let i = this.runs - this.lastRuns; i < this.runs; i++) shown.add(i);
    const decidable = (1 - step.level) * BEYOND_LEVEL;
    for (const c of this.candidates) {
      if (c.p > decidable) continue;
      const raw = compareSummaries(c.pair[0].summary(), c.pair[1].summary(), this.options).raw!;
      if (!decidedDirection(step.readAt(raw))) continue;
      shown.add(c.run);
      shown.add(c.from);
    }
    const read = new Set(shown);
    for (const run of shown) {
      for (const previous of this.previous) {
        const from = previous?.[run] ?? -1;
        if (from >= 0) read.add(from);
      }
    }
    return { step, m: this.m, shown, read };
  }
}
