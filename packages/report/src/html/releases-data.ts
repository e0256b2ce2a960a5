/**
 * What the release matrix's page (page/releases.ts) is given: per track the
 * releases with their engines, per case the points (time relative to the
 * first release), each step's interval drawn at the newer release, the change
 * points with their texts and commands, the claims × releases grid of a
 * track that claims runs checked, and the summary lines. Every text is
 * formatted here, so the page only lays it out. Pure.
 */
import type { ClaimWord } from '@rtbench/core/claims-schema';
import { counted } from '../text.ts';
import { formatChange, formatThreshold, ratioWithCi } from '../format.ts';
import { claimedText, claimFigure, claimFlipText, matrixRowText } from '../cells/claims.ts';
import { claimFlips, lastStepLine } from '../cells/releases.ts';
import type { ReleaseMatrixView } from '../views/releases.ts';
import type { ClaimsMatrix } from '@rtbench/verdicts';
import { decidedDirection } from '@rtbench/verdicts';

interface ReleasesPagePoint {
  /** Index into the track's releases. */
  at: number;
  relative: number;
  /** The step's interval that ends here, on the relative scale. */
  lo?: number;
  hi?: number;
  text: string;
  change?: { kind: 'faster' | 'slower'; text: string; engines: string };
}

interface ReleasesPageCase {
  caseId: string;
  points: ReleasesPagePoint[];
}

/** A track's claims × the releases checked: each cell the claim's word, with its figure and what was claimed as its title. */
interface ReleasesPageClaims {
  releases: { tag: string; engine: string }[];
  rows: { says: string; row: string; cells: ({ word: ClaimWord; text: string } | null)[] }[];
  flips: string[];
}

interface ReleasesPageTrack {
  key: string;
  range: string;
  releases: { tag: string; engine: string }[];
  cases: ReleasesPageCase[];
  lastStep: string;
  progress: string;
  claims?: ReleasesPageClaims;
}

export interface ReleasesPageData {
  kind: 'releases';
  title: string;
  subtitle: string;
  tracks: ReleasesPageTrack[];
  changes: { track: string; caseId: string; kind: 'faster' | 'slower'; text: string; commands: string[] }[];
  /** Claims that changed their word between two releases; absent: no claims run was given. */
  claimFlips?: { track: string; text: string; commands: string[] }[];
  legend: string[];
}


function pageClaims(m: ClaimsMatrix): ReleasesPageClaims {
  return {
    releases: m.columns.map((c) => ({ tag: c.label, engine: c.versionText ?? '' })),
    rows: m.rows.map((r) => ({
      says: r.says,
      row: matrixRowText(r.sides),
      cells: r.cells.map((o) => (o ? { word: o.word, text: `${o.word}: ${claimFigure(o)}; claimed ${claimedText(o)}; ${counted(o.units, 'unit')}${o.note ? `; ${o.note}` : ''}` } : null)),
    })),
    flips: m.flips.map(claimFlipText),
  };
}

export function releasesPageData(view: ReleaseMatrixView): ReleasesPageData {
  const flips = claimFlips(view);
  return {
    kind: 'releases',
    title: `release matrix: ${view.tracks.map((t) => t.track.key).join(', ')}`,
    subtitle: `${view.tracks.map((t) => `${t.track.range} (${t.track.releases.length} releases)`).join('; ')}; ${counted(view.changePoints.length, 'change point')}`,
    tracks: view.tracks.map((t) => ({
      key: t.track.key,
      range: t.track.range,
      releases: t.track.releases.map((tag) => ({ tag, engine: t.engines[tag]?.engine ?? '' })),
      lastStep: lastStepLine(t),
      progress: t.setsMeasured < t.setsWanted ? `${t.setsMeasured} of ${t.setsWanted} sets measured` : `${t.setsMeasured} sets measured`,
      ...(t.claims ? { claims: pageClaims(t.claims) } : {}),
      cases: t.cases.map((c) => ({
        caseId: c.caseId,
        points: c.relative.flatMap((relative, at): ReleasesPagePoint[] => {
          if (relative === undefined) return [];
          const step = at > 0 ? c.steps[at - 1] : undefined;
          const before = at > 0 ? c.relative[at - 1] : undefined;
          const finite = step && Number.isFinite(step.comparison.ci[1]) && step.comparison.ci[0] > 0;
          const changed = step && decidedDirection(step.comparison);
          const older = t.track.releases[at - 1];
          const engines = older !== undefined ? `${t.engines[older]?.engine ?? '?'} → ${t.engines[t.track.releases[at]!]?.engine ?? '?'}` : '';
          return [
            {
              at,
              relative,
              ...(finite && before !== undefined ? { lo: before * step.comparison.ci[0], hi: before * step.comparison.ci[1] } : {}),
              text: `${t.track.releases[at]}: ${relative.toFixed(3)}× the first release${step ? `; step ${ratioWithCi(step.comparison.ratio, step.comparison.ci)}, ${step.comparison.verdict}` : ''}`,
              ...(changed && step ? { change: { kind: changed, text: `${older} → ${t.track.releases[at]}: ${changed} ${formatChange(step.comparison.ratio)}`, engines } } : {}),
            },
          ];
        }),
      })),
    })),
    changes: view.changePoints.map((c) => ({
      track: c.track,
      caseId: c.caseId,
      kind: c.direction,
      text: `${c.older} → ${c.newer} (${c.engines.older?.engine ?? '?'} → ${c.engines.newer?.engine ?? '?'}): ${c.direction} ${formatChange(c.comparison.ratio)}, ratio ${ratioWithCi(c.comparison.ratio, c.comparison.ci)}`,
      commands: [c.compareCommand, ...(c.bisectCommand ? [c.bisectCommand] : [])],
    })),
    ...(flips ? { claimFlips: flips.map((f) => ({ track: f.track, text: f.text, commands: f.bisect })) } : {}),
    legend: [
      `Each line is a case's time relative to its track's first release (log scale), the product of the adjacent steps' paired ratios; the bar at a release is the interval of the step that ends there. ${view.comparisons} steps × cases are read together at ${formatThreshold(view.confidence)} (Benjamini–Hochberg); a triangle marks a change point (interval excludes 1, change beyond ${formatThreshold(view.threshold)}). The newest release is shaded.`,
      ...(flips ? ["Claims × releases: each claim's word (held, broken, undecided) on each release a claims run given with --claims checked, read as rtbench claims reads it (hover a cell for the figure and what was claimed); a claim that changed its word between two releases is listed with the bisects that find where."] : []),
    ],
  };
}
