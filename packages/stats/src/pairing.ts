/**
 * Pairs of per-round values for the paired analysis (comparePaired,
 * pairedStopping): round i of a baseline and a candidate ran together, so the
 * analysis works on ln(candidate/baseline) per round. A fresh-process round's
 * pair is the two medians. A lockstep round's log ratio comes from its
 * per-turn ratios (turnLogRatio): samples of one turn shared the machine's
 * state, so their ratio cancels the state switches a ratio of medians would
 * average over. It is returned as the pair (b, b·exp(r)) so the paired
 * statistics apply as they are.
 */
import { processStatisticOf, readByMean, statisticOf, type SpannedRound } from './amortized.ts';
import { meanOf } from './variance-components.ts';
import { summarizeRounds, type RoundsOptions, type RoundsSummary } from './bootstrap.ts';
import { median } from './quantile.ts';
import { hodgesLehmann } from './rank-tests.ts';

export interface PairableRound extends SpannedRound {
  round: number;
  samples: readonly number[];
  /**
   * Set when the round was taken in turns beside the other arms' (a lockstep set: sample i in turn i; a saved
   * round says so in its measurer's block, read by measurer-records' pairable); `process`: which of the arm's warm
   * processes took it. Undefined: a round of its own, paired by its median. Required, so a saved round not read
   * through pairable() does not type-check.
   */
  turns: { process?: number | undefined } | undefined;
}

export interface RoundPairs {
  /** Round indices present in both arms, ascending. */
  rounds: number[];
  baseline: number[];
  candidate: number[];
  /**
   * Which processes each pair came from ("baseline's/candidate's" process
   * numbers), when every round of both arms says (warm lockstep processes):
   * pairs from the same two processes are one unit (comparePaired's `units`).
   * Absent: every round had processes of its own.
   */
  units?: string[];
}

/** Above this many turns the median stands in for Hodges–Lehmann (its Walsh averages grow with the square). */
const HL_MAX_TURNS = 400;

/**
 * The set's log ratio from its turns: the Hodges–Lehmann estimate of
 * ln(c_t/b_t) (robust like the median, about 95% as efficient as the mean on
 * normal data where the median is 64%), or their median past HL_MAX_TURNS.
 * NaN when no turn has two positive samples.
 */
export function turnLogRatio(baseline: readonly number[], candidate: readonly number[]): number {
  const d: number[] = [];
  // Stryker disable next-line MethodExpression: past the shorter arm's end its sample is undefined, and undefined > 0 is false: no turn is added
  const n = Math.min(baseline.length, candidate.length);
  // Stryker disable next-line EqualityOperator: past the shorter arm's end its sample is undefined, and undefined > 0 is false: no turn is added
  for (let t = 0; t < n; t++) {
    const b = baseline[t]!;
    const c = candidate[t]!;
    if (b > 0 && c > 0) d.push(Math.log(c / b));
  }
  if (!d.length) return NaN;
  return d.length <= HL_MAX_TURNS ? hodgesLehmann(d) : median(d);
}

/**
 * The pairs of two arms' rounds. `value` maps a median to the scale compared
 * (e.g. requests/s to seconds per request); lockstep rounds are compared on
 * their samples, which are always times. When either arm is read by its
 * processes' means (amortized.ts readByMean), both are, and a lockstep set's
 * log ratio is that of its two means: the ratio then reads what the figures
 * beside it read.
 */
export function pairRounds(baseline: readonly PairableRound[], candidate: readonly PairableRound[], value: (median: number) => number = (m) => m): RoundPairs {
  const byMean = readByMean(baseline) || readByMean(candidate);
  const figure = (samples: readonly number[]): number => statisticOf(samples, byMean ? 'mean' : 'median');
  const byRound = new Map(candidate.filter((r) => r.samples.length).map((r) => [r.round, r]));
  const out: RoundPairs = { rounds: [], baseline: [], candidate: [] };
  const clusters: string[] = [];
  for (const b of [...baseline].sort((x, y) => x.round - y.round)) {
    const c = byRound.get(b.round);
    if (!c || !b.samples.length) continue;
    const bm = value(figure(b.samples));
    let cm: number;
    if (b.turns && c.turns) {
      const r = byMean ? Math.log(meanOf(c.samples) / meanOf(b.samples)) : turnLogRatio(b.samples, c.samples);
      cm = Number.isFinite(r) ? bm * Math.exp(r) : 0;
    } else cm = value(figure(c.samples));
    out.rounds.push(b.round);
    out.baseline.push(bm);
    out.candidate.push(cm);
    const bp = b.turns?.process;
    const cp = c.turns?.process;
    if (bp !== undefined && cp !== undefined) clusters.push(`${bp}/${cp}`);
  }
  if (clusters.length && clusters.length === out.rounds.length) out.units = clusters;
  return out;
}

/** The process of each of an arm's rounds, when every round says (warm lockstep processes); absent: each round had its own. */
export function processesOf(rounds: readonly PairableRound[]): number[] | undefined {
  const labels = rounds.map((r) => r.turns?.process);
  return labels.length && labels.every((p): p is number => p !== undefined) ? labels : undefined;
}

/** One arm's statistics with its processes as the unit (summarizeRounds over the rounds that have samples). */
export function summarizeArm(rounds: readonly PairableRound[], opts: RoundsOptions = {}): RoundsSummary {
  const taken = rounds.filter((r) => r.samples.length);
  const processes = processesOf(taken);
  return summarizeRounds(taken.map((r) => r.samples), { ...opts, ...(processes ? { processes } : {}), statistic: processStatisticOf(taken) });
}
