/**
 * A matrix's steps from its saved runs. Per track, case and adjacent step
 * older → newer: the two releases' rounds in every run of a window that holds
 * both are paired set by set (stats' pairRounds: a lockstep set's ratio from
 * its turns), the unit is the set of processes (sets one process pair served
 * count once; runs never share a unit), and comparePaired gives the ratio and
 * its t interval. How the steps are read together and which are change
 * points is @rtbench/verdicts' (judgeSteps, changedSteps).
 */
import type { RunRecord, Variant } from '@rtbench/core/schema';
import { comparePaired, pairRounds, type Comparison } from '@rtbench/stats';
import { pairable } from '@rtbench/measurer-records';
import { bisectCommand, compareCommand } from './commands.ts';
import type { ReleaseMatrixView } from '@rtbench/report/views';
import { claimsGrid } from './claims.ts';
import type { MatrixIdentity, ReleaseClaim, TrackState } from './types.ts';
import { windowHolds } from './windows.ts';
import { changedSteps, judgeSteps, type CaseSeries, type ChangePoint, type ReleaseEngine, type StepVerdict, type TrackAnalysis } from '@rtbench/verdicts';

/** Reads a run of the folder by its file name. */
export type RunReader = (file: string) => RunRecord;

/**
 * The runs a list of files holds, each run once: a run is known by its id, so
 * one listed twice, or copied under another name, never adds its sets again.
 */
function distinctRuns(files: readonly string[], read: RunReader, seen = new Set<string>()): RunRecord[] {
  return files.flatMap((file) => {
    const run = read(file);
    if (seen.has(run.id)) return [];
    seen.add(run.id);
    return [run];
  });
}

/**
 * The run's variant of one release of the track (the track's flags are the
 * same on every release, so the spec names it; a package's track, the
 * version its arm pins).
 */
function variantOf(run: RunRecord, track: Pick<TrackState, 'runtime'>, tag: string): Variant | undefined {
  const release = `${track.runtime}@${tag}`;
  return run.variants.find((v) => !v.unavailable && (v.spec === release || v.packages?.some((p) => !p.follows && `${p.name}@${p.version}` === release)));
}

/** Sets of a window's run in which one case at least has samples on every release: the sets it measured. */
function setsIn(run: RunRecord, track: Pick<TrackState, 'runtime'>, releases: readonly string[]): number {
  const ids = releases.map((tag) => variantOf(run, track, tag)?.id);
  if (ids.some((id) => id === undefined)) return 0;
  const rounds = new Set<number>();
  for (const c of run.cases) {
    const per = ids.map((id) => new Set(run.results.find((r) => r.caseId === c.id && r.variantId === id)?.rounds.filter((x) => x.samples.length).map((x) => x.round) ?? []));
    for (const round of per[0]!) if (per.every((s) => s.has(round))) rounds.add(round);
  }
  return rounds.size;
}

/** Sets a window's runs measured, each run counted once. */
export function setsOf(window: Pick<TrackState['windows'][number], 'runs' | 'releases'>, track: Pick<TrackState, 'runtime'>, read: RunReader): number {
  return distinctRuns(window.runs, read).reduce((n, run) => n + setsIn(run, track, window.releases), 0);
}

interface PooledStep {
  baseline: number[];
  candidate: number[];
  units: string[];
  runs: number;
}

/** The paired values of one step of one case, pooled over every run of every window that holds both releases. */
function poolStep(track: TrackState, read: RunReader, caseId: string, older: string, newer: string): PooledStep {
  const pooled: PooledStep = { baseline: [], candidate: [], units: [], runs: 0 };
  const seen = new Set<string>();
  for (const window of track.windows) {
    if (!windowHolds(window, older, newer)) continue;
    for (const run of distinctRuns(window.runs, read, seen)) {
      const a = variantOf(run, track, older);
      const b = variantOf(run, track, newer);
      if (!a || !b) continue;
      const ra = run.results.find((r) => r.caseId === caseId && r.variantId === a.id);
      const rb = run.results.find((r) => r.caseId === caseId && r.variantId === b.id);
      if (!ra || !rb) continue;
      const pairs = pairRounds(ra.rounds.map(pairable), rb.rounds.map(pairable));
      let used = false;
      pairs.baseline.forEach((base, i) => {
        const cand = pairs.candidate[i]!;
        if (!(base > 0 && cand > 0)) return;
        pooled.baseline.push(base);
        pooled.candidate.push(cand);
        // A unit is a set of processes of one run: labels never meet across runs.
        pooled.units.push(`${run.id}:${pairs.units?.[i] ?? `round ${pairs.rounds[i]}`}`);
        used = true;
      });
      if (used) pooled.runs++;
    }
  }
  return pooled;
}

/** Each release's engine, from the first run that ran it. */
function enginesOf(track: TrackState, read: RunReader): Record<string, ReleaseEngine> {
  const out: Record<string, ReleaseEngine> = {};
  for (const window of track.windows) {
    for (const file of window.runs) {
      const run = read(file);
      for (const tag of window.releases) {
        const v = variantOf(run, track, tag);
        if (!v || out[tag]) continue;
        const engine = v.engineVersion ? `${v.displayNames?.engineShort ?? v.displayNames?.engine ?? v.engine ?? 'engine'} ${v.engineVersion}` : undefined;
        // A package's track names the package's version; the runtime's is the same on every release.
        const pinned = v.packages?.some((p) => p.name === track.runtime);
        out[tag] = { version: pinned ? tag : (v.version ?? tag), ...(engine ? { engine } : {}) };
      }
    }
  }
  return out;
}

/** The cases a track's runs measured, in the order the runs list them. */
function casesOf(track: TrackState, read: RunReader): string[] {
  const ids = new Set<string>();
  for (const w of track.windows) for (const f of w.runs) for (const c of read(f).cases) ids.add(c.id);
  return [...ids];
}

/** Between `older` and `newer` in the full listing: the releases --every skipped. */
function skippedBetween(track: TrackState, older: string, newer: string): string[] {
  const a = track.listed.indexOf(older);
  const b = track.listed.indexOf(newer);
  return a >= 0 && b > a ? track.listed.slice(a + 1, b) : [];
}

/** The matrix's view; `claims`: the claims outcomes kept for its tracks (drawn per track as claims × releases). */
export function analyseMatrix(identity: MatrixIdentity, tracks: readonly TrackState[], read: RunReader, folder: string, claims: readonly ReleaseClaim[] = []): ReleaseMatrixView {
  // First every step's comparison, then all of them read together at the adjusted level.
  const raw: { track: number; caseIndex: number; step: number; comparison: Comparison; sets: number; runs: number }[] = [];
  const skeleton = tracks.map((track, t) => {
    const cases = casesOf(track, read);
    return cases.map((caseId, caseIndex) => {
      track.releases.slice(1).forEach((newer, step) => {
        const older = track.releases[step]!;
        const pooled = poolStep(track, read, caseId, older, newer);
        if (!pooled.baseline.length) return;
        const comparison = comparePaired(pooled.baseline, pooled.candidate, { threshold: identity.threshold, units: pooled.units });
        raw.push({ track: t, caseIndex, step, comparison, sets: pooled.baseline.length, runs: pooled.runs });
      });
      return caseId;
    });
  });
  const { adjusted, confidence } = judgeSteps(raw.map((r) => r.comparison));
  const changePoints: ChangePoint[] = [];
  const analyses: TrackAnalysis[] = tracks.map((track, t) => {
    const engines = enginesOf(track, read);
    const cases: CaseSeries[] = skeleton[t]!.map((caseId, caseIndex) => {
      const steps: (StepVerdict | undefined)[] = track.releases.slice(1).map(() => undefined);
      raw.forEach((r, i) => {
        if (r.track !== t || r.caseIndex !== caseIndex) return;
        steps[r.step] = { older: track.releases[r.step]!, newer: track.releases[r.step + 1]!, comparison: adjusted[i]!, sets: r.sets, runs: r.runs };
      });
      const relative: (number | undefined)[] = [1];
      for (const s of steps) {
        const before = relative.at(-1);
        relative.push(before !== undefined && s ? before * s.comparison.ratio : undefined);
      }
      for (const { step: s, direction } of changedSteps(steps)) {
        const skipped = skippedBetween(track, s.older, s.newer);
        changePoints.push({
          track: track.key,
          caseId,
          older: s.older,
          newer: s.newer,
          direction,
          comparison: s.comparison,
          engines: { ...(engines[s.older] ? { older: engines[s.older] } : {}), ...(engines[s.newer] ? { newer: engines[s.newer] } : {}) },
          skipped,
          compareCommand: compareCommand(track, s.older, s.newer, caseId),
          ...(skipped.length ? { bisectCommand: bisectCommand(track, s.older, s.newer, caseId) } : {}),
        });
      }
      return { caseId, relative, steps };
    });
    const setsMeasured = track.windows.reduce((n, w) => n + Math.min(identity.sets, setsOf(w, track, read)), 0);
    const grid = claimsGrid(track, claims, engines);
    return { track: { key: track.key, runtime: track.runtime, extra: track.extra, suite: track.suite, range: track.range, listed: track.listed, releases: track.releases }, engines, cases, setsMeasured, setsWanted: track.windows.length * identity.sets, ...(grid ? { claims: grid } : {}) };
  });
  return { kind: 'releases', threshold: identity.threshold, tracks: analyses, changePoints, comparisons: raw.length, confidence, folder };
}
