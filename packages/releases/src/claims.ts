/**
 * Claims on a matrix's releases (`rtbench releases … --claims <folder or
 * run>`): the outcomes of claims runs (`rtbench claims --across
 * node@24,node@26`, or any claims run) matched to the tracks whose runtime,
 * release and suite they were checked on, kept in the folder's state, and
 * drawn per track as claims × the releases checked. A claims outcome belongs
 * to a release of a track when its subject ran as that release of the track's
 * runtime (or, for a claim whose subject is another runtime, its other side
 * did), at a version the track measures, on the track's suite.
 */
import type { RunRecord, Variant } from '@rtbench/core/schema';
import type { ClaimOutcome } from '@rtbench/core/claims-schema';
import { bisectCommand } from './commands.ts';
import { MatrixRefused } from './refused.ts';
import type { MatrixState, ReleaseClaim } from './types.ts';
import { type ClaimsMatrix, claimsMatrix, type MatrixColumn, type MatrixRowSides, type ReleaseEngine, type ReleaseTrack } from '@rtbench/verdicts';

/** The claims runs one `--claims` argument named: a folder's, or one run's. */
export interface GivenClaims {
  path: string;
  runs: readonly { run: RunRecord; file: string }[];
}

/** A run's variant as a release of a runtime ("node", "26.0.0"); undefined when it is none (a build of your own, no version recorded). */
export type ReleaseOf = (variant: Variant) => { runtime: string; tag: string } | undefined;

/** How the matrix names a track's suite (a suite typed as a path goes by its own name, as claims outcomes do). */
export type SuiteName = (typed: string) => string;

interface RunRelease {
  runtime: string;
  tag: string;
  /** The variant's spec ("node@24"): its id with this replaced by the runtime is the side without the release. */
  spec: string;
}

/** The run's variants that are releases, by variant id. */
function runReleases(run: RunRecord, resolve: ReleaseOf): Map<string, RunRelease> {
  const releases = new Map<string, RunRelease>();
  for (const v of run.variants) {
    const r = resolve(v);
    if (r) releases.set(v.id, { ...r, spec: v.spec });
  }
  return releases;
}

/** The outcomes of one run on the releases of one track. */
function onTrack(track: ReleaseTrack, suite: string, given: { run: RunRecord; file: string }, releases: ReadonlyMap<string, RunRelease>): ReleaseClaim[] {
  const { run } = given;
  const ofTrack = (id: string): RunRelease | undefined => {
    const r = releases.get(id);
    return r && r.runtime === track.runtime ? r : undefined;
  };
  const out: ReleaseClaim[] = [];
  for (const outcome of run.claims?.outcomes ?? []) {
    if (outcome.suite !== suite) continue;
    const subject = ofTrack(outcome.subject.variantId);
    // The other side counts only when the subject is another runtime (deno against node@24, across node's releases), not a build of this one.
    const subjectRuntime = run.variants.find((v) => v.id === outcome.subject.variantId)?.runtime;
    const at = subject ?? (subjectRuntime === track.runtime ? undefined : ofTrack(outcome.other.variantId));
    if (!at || !track.releases.includes(at.tag)) continue;
    // Every side that ran as this release is written without it, so one check lines up across the releases.
    const bare = (id: string): string => {
      const r = ofTrack(id);
      return r && r.tag === at.tag && id.startsWith(r.spec) ? `${track.runtime}${id.slice(r.spec.length)}` : id;
    };
    out.push({
      track: track.key,
      release: at.tag,
      sides: { subject: bare(outcome.subject.variantId), other: bare(outcome.other.variantId) },
      run: { id: run.id, file: given.file, startedAt: run.startedAt },
      outcome,
    });
  }
  return out;
}

/** A run's releases, for the refusal: "node 20.19.1, deno 2.1.0". */
function releasesText(releases: ReadonlyMap<string, RunRelease>): string {
  const named = [...new Set([...releases.values()].map((r) => `${r.runtime} ${r.tag}`))];
  return named.length ? named.join(', ') : 'no release (builds of your own, or no version recorded)';
}

/**
 * The outcomes of the claims runs on the tracks' releases. An argument none
 * of whose runs checked a claim on a release of a track is refused in one line
 * (a wrong folder, a release outside the ranges, another suite): named on the
 * command line, it was meant to show. Runs of a folder that match nothing
 * (one release of an --across outside the ranges) are left out.
 */
export function matchClaims(tracks: readonly ReleaseTrack[], given: readonly GivenClaims[], resolve: ReleaseOf, suiteName: SuiteName): ReleaseClaim[] {
  const suites = new Map(tracks.map((t) => [t.key, suiteName(t.suite)]));
  return given.flatMap((g) => {
    const runs = g.runs.map((r) => ({ ...r, releases: runReleases(r.run, resolve) }));
    const found = runs.flatMap((r) => tracks.flatMap((t) => onTrack(t, suites.get(t.key)!, r, r.releases)));
    if (found.length) return found;
    const checked = runs.map((r) => `${r.run.suite} on ${releasesText(r.releases)}`).join('; ');
    const ranges = tracks.map((t) => `${t.key} ${t.releases[0]}–${t.releases.at(-1)}`).join('; ');
    throw new MatrixRefused(`--claims ${g.path}: no claim in it was checked on a release of this matrix's tracks (it checked ${checked}; the tracks: ${ranges})`);
  });
}

/** The claims of this sitting's tracks into the state; a run given before has its outcomes replaced, not doubled. */
export function keepClaims(state: MatrixState, tracks: readonly ReleaseTrack[], claims: readonly ReleaseClaim[]): void {
  if (!claims.length) return;
  const again = new Set(claims.map((c) => c.run.id));
  const keys = new Set(tracks.map((t) => t.key));
  state.claims = [...(state.claims ?? []).filter((c) => !again.has(c.run.id)), ...claims.filter((c) => keys.has(c.track))];
}

/** One check across the releases: the claim, its cases and parameters, and its sides without the release. */
function checkKey(c: ReleaseClaim): string {
  const o = c.outcome;
  return JSON.stringify([o.suite, o.says, c.sides.subject, c.sides.other, o.subject.caseId, o.other.caseId, o.params ?? {}]);
}

/** The flags and environment of the side that ran as the release ("--jitless"), for a bisect over the track's releases. */
function releaseExtra(runtime: string, c: ReleaseClaim): string[] {
  const side = [c.sides.subject, c.sides.other].find((s) => s === runtime || s.startsWith(`${runtime} `)) ?? runtime;
  const extra = side.slice(runtime.length).replace(/ #\d+$/, '').trim();
  return extra ? [extra] : [];
}

/**
 * A track's claims × the releases checked (oldest first), a row per check;
 * where two runs checked the same claim on the same release, the newer run's
 * word. A claim decided one way on a release and the other way on the next
 * release that decided it is a flip, with the bisects that find where (one per
 * case the claim compares). Undefined: no claim on this track.
 */
export function claimsGrid(track: ReleaseTrack, claims: readonly ReleaseClaim[], engines: Readonly<Record<string, ReleaseEngine>>): ClaimsMatrix | undefined {
  const mine = claims.filter((c) => c.track === track.key && track.releases.includes(c.release));
  if (!mine.length) return undefined;
  const rows = [...new Set(mine.map(checkKey))];
  const newest = new Map<string, ReleaseClaim>();
  for (const c of [...mine].sort((a, b) => a.run.startedAt.localeCompare(b.run.startedAt))) newest.set(`${checkKey(c)}\u0000${c.release}`, c);
  const of = new Map<ClaimOutcome, ReleaseClaim>([...newest.values()].map((c) => [c.outcome, c]));
  const columns: MatrixColumn[] = track.releases
    .filter((tag) => mine.some((c) => c.release === tag))
    .map((tag) => ({ label: tag, ...(engines[tag]?.engine ? { versionText: engines[tag].engine } : {}), outcomes: rows.map((key) => newest.get(`${key}\u0000${tag}`)?.outcome) }));
  // A row compares the track's sides without their release ("node"); report words it where it is shown.
  const sidesOf = (o: ClaimOutcome): MatrixRowSides => {
    const c = of.get(o)!;
    return { subject: { caseId: o.subject.caseId, variantId: c.sides.subject }, other: { caseId: o.other.caseId, variantId: c.sides.other }, ...(o.params ? { params: o.params } : {}) };
  };
  const bisect = (from: MatrixColumn, to: MatrixColumn, o: ClaimOutcome): string[] => {
    const where = { runtime: track.runtime, extra: releaseExtra(track.runtime, of.get(o)!), suite: track.suite };
    return [...new Set([o.subject.caseId, o.other.caseId])].map((caseId) => bisectCommand(where, from.label, to.label, caseId));
  };
  return claimsMatrix(columns, bisect, sidesOf);
}
