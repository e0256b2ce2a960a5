/**
 * A claim outcome as text, the same in every reporter: its measured figure
 * in the claim's own terms with the interval its word was read from, and
 * what was claimed.
 */
import { costWords, expectationText } from '@rtbench/core/claims';
import type { ClaimOutcome, ClaimWord } from '@rtbench/core/claims-schema';
import type { ClaimsRunInfo, ClaimsView } from '../views/claims-types.ts';
import { formatThreshold, percentText } from '../format.ts';
import { formatBytes } from '../metrics.ts';
import type { ClaimRow } from '../columns/claims.ts';
import type { ClaimFlip, MatrixRowSides } from '@rtbench/verdicts';

const fixed = (x: number): string => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const pct = (x: number): string => percentText(x * 100, 1, true);

/**
 * The figure: a faster claim as the speed-up (other/subject), a slower claim
 * as the slowdown (subject/other), a band claim as the change of the
 * subject's cost; each with its adjusted interval, or "no interval".
 */
export function claimFigure(o: Pick<ClaimOutcome, 'expect' | 'ratio' | 'interval'> & Partial<Pick<ClaimOutcome, 'measure'>>): string {
  if (o.ratio === undefined) return '—';
  const ci = o.interval;
  const words = costWords(o.measure);
  switch (o.expect.kind) {
    case 'faster':
      return `${fixed(1 / o.ratio)}× ${words.lower} ${ci ? `[${fixed(1 / ci[1])}–${fixed(1 / ci[0])}]` : '(no interval)'}`;
    case 'slower':
      return `${fixed(o.ratio)}× ${words.higher} ${ci ? `[${fixed(ci[0])}–${fixed(ci[1])}]` : '(no interval)'}`;
    case 'at-most':
      return `${fixed(o.ratio)}× ${ci ? `[${fixed(ci[0])}–${fixed(ci[1])}]` : '(no interval)'}`;
    case 'cpu-below': {
      // The ratio is of the quantile to the limit: the figure is the quantile itself, in ms.
      const ms = o.expect.ms;
      return `${fixed(o.ratio * ms)} ms ${ci ? `[${fixed(ci[0] * ms)}–${fixed(ci[1] * ms)}]` : '(no interval)'}`;
    }
    case 'below': {
      // The ratio is the peak over the bound: the figure is the peak itself.
      const bytes = (x: number): string => formatBytes(x * (o.expect as { bytes: number }).bytes);
      return `peak ${bytes(o.ratio)} ${ci ? `[${bytes(ci[0])}–${bytes(ci[1])}]` : '(no interval)'}`;
    }
    default:
      return `${pct(o.ratio - 1)} ${ci ? `[${pct(ci[0] - 1)}, ${pct(ci[1] - 1)}]` : '(no interval)'}`;
  }
}

/** What was claimed, in words ("at least 1.5× faster"; "no detectable difference (±1%)"). */
export function claimedText(o: Pick<ClaimOutcome, 'expect' | 'threshold'> & Partial<Pick<ClaimOutcome, 'measure' | 'quantile'>>): string {
  const text = `${o.quantile ? `${o.quantile} ` : ''}${expectationText(o.expect, o.measure)}`;
  return o.expect.kind === 'same' && o.threshold !== undefined ? `${text} (±${formatThreshold(o.threshold)})` : text;
}

/** A claim that flipped between two columns: "<claim> · node: a vs b: held on 25.9.0, broken on 26.0.0". */
export function claimFlipText(f: ClaimFlip): string {
  return `${f.says} · ${matrixRowText(f.sides)}: ${f.from.word} on ${f.from.column}, ${f.to.word} on ${f.to.column}`;
}

/** A check's two sides: a case on a variant each, and the subject's parameters. */
interface Sides {
  subject: { caseId: string; variantId: string };
  other: { caseId: string; variantId: string };
  params?: ClaimOutcome['params'];
}

const paramsText = (params: ClaimOutcome['params']): string => (params && Object.keys(params).length ? ` [${Object.entries(params).map(([k, v]) => `${k}=${String(v)}`).join(', ')}]` : '');

/**
 * A claims matrix's row: its sides as claimSides says them where the row names
 * its variants (a release matrix's "node: a vs b"), else its cases and
 * parameters ("a vs b [size=10kb]": each column is another release).
 */
export function matrixRowText(s: MatrixRowSides): string {
  const { variantId: subject } = s.subject;
  const { variantId: other } = s.other;
  if (subject !== undefined && other !== undefined) return claimSides({ subject: { caseId: s.subject.caseId, variantId: subject }, other: { caseId: s.other.caseId, variantId: other }, ...(s.params ? { params: s.params } : {}) });
  const cases = s.subject.caseId === s.other.caseId ? s.subject.caseId : `${s.subject.caseId} vs ${s.other.caseId}`;
  return `${cases.replace(/ \[[^\]]*\]$/, '')}${paramsText(s.params)}`;
}

/** The sides compared: "node@26: a vs b", "workerd vs node@26", with the subject's parameters. */
export function claimSides(o: Sides): string {
  const params = paramsText(o.params);
  // An absolute bound's other side is its subject: it is checked on one variant.
  if (o.subject.caseId === o.other.caseId && o.subject.variantId === o.other.variantId && !o.other.variantId.endsWith(' #2')) return `${o.subject.variantId}${params}`;
  if (o.subject.caseId === o.other.caseId) return `${o.subject.variantId} vs ${o.other.variantId}${params}`;
  const bare = (id: string): string => id.replace(/ \[[^\]]*\]$/, '');
  // A group both cases share is said once, before them ("parse: identity reviver (arrow) vs no reviver").
  // Parameters the two share are said once (or by the claim); they stay where they differ (Math.sin [decade=1e8] vs [decade=1e0]).
  const suffix = (id: string): string => id.slice(bare(id).length);
  const [a, b] = suffix(o.subject.caseId) === suffix(o.other.caseId) ? [bare(o.subject.caseId), bare(o.other.caseId)] : [o.subject.caseId, o.other.caseId];
  const group = /^(.*?) \/ /.exec(a)?.[1];
  const cases = group !== undefined && b.startsWith(`${group} / `) ? `${group}: ${a.slice(group.length + 3)} vs ${b.slice(group.length + 3)}` : `${a} vs ${b}`;
  return `${o.subject.variantId}${params}`.concat(o.subject.variantId === o.other.variantId ? '' : ` vs ${o.other.variantId}`, `: ${cases}`);
}

/** A claims view's checks as its CSV's rows (columns/claims.ts). */
export function claimRows(view: ClaimsView): ClaimRow[] {
  return view.outcomes.map((outcome) => ({ outcome, sides: claimSides(outcome), ...(view.interrupted !== undefined ? { interrupted: view.interrupted } : {}) }));
}

const WORDS: readonly ClaimWord[] = ['held', 'broken', 'undecided'];

export function countsLine(view: Pick<ClaimsView, 'counts'>): string {
  return WORDS.map((w) => `${view.counts[w]} ${w}`).join(', ');
}

/** Outcomes grouped by a key, groups in order of first appearance. */
function groupedBy(outcomes: readonly ClaimOutcome[], key: (o: ClaimOutcome) => string): [string, ClaimOutcome[]][] {
  const out = new Map<string, ClaimOutcome[]>();
  for (const o of outcomes) out.set(key(o), [...(out.get(key(o)) ?? []), o]);
  return [...out];
}

/** The outcomes suite by suite. */
export const bySuite = (outcomes: readonly ClaimOutcome[]): [string, ClaimOutcome[]][] => groupedBy(outcomes, (o) => o.suite);

/** A suite's outcomes claim by claim, under each sentence. */
export const bySentence = (outcomes: readonly ClaimOutcome[]): [string, ClaimOutcome[]][] => groupedBy(outcomes, (o) => o.says);

/** One line per run: when, the load, the variants and the command. */
export function runLine(r: ClaimsRunInfo): string {
  const variants = r.variants.map((v) => `${v.id} (${v.versionText})`).join(', ');
  return `${r.suite}: ${r.startedAt.replace(/\.\d+Z$/, 'Z')}, load ${r.loadavg.map((x) => x.toFixed(1)).join(' ')}, ${r.rounds} rounds, ${variants}${r.file ? `; ${r.file}` : ''}`;
}
