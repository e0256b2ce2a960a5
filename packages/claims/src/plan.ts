/**
 * The smallest runs that decide a suite's checks: checks are grouped by the
 * variants they need and the measurer that decides them, and each group is
 * one run of only the cases its checks name on only those variants, in
 * interleaved lockstep sets. `--runtime` replaces variants in the checks
 * (a release, or your own build) and keeps only the checks it touches.
 */
import { isBound, type ClaimMeasure } from '@rtbench/core/claims';
import { pluginForSpec } from '@rtbench/runtime-registry';
import { UsageError } from '@rtbench/core/usage-error';
import type { RunRequest } from '@rtbench/run';
import { parseVariant, pinText, quotePart } from '@rtbench/arms';
import type { VariantSpec } from '@rtbench/runtime-registry';
import type { PlannedCheck } from './checks.ts';
import { checkClaims, type ClaimFamily } from '@rtbench/verdicts';

/** One run: a suite's cases on variants, and the checks it decides. */
export interface ClaimsRunPlan {
  suite: string;
  /** What the run measures: peak memory is read in the run that times the cases. */
  measure: Exclude<ClaimMeasure, 'peakRss'>;
  /** Variant ids in run order; an A/A check's second arm is "<id> #2". */
  variants: string[];
  cases: string[];
  checks: PlannedCheck[];
}

const COPY = / #\d+$/;

/** The variant a run id stands for (without an A/A copy's " #2"). */
export function baseVariant(id: string): string {
  return id.replace(COPY, '');
}

function runtimeOf(id: string): string {
  return pluginForSpec(parseVariant(baseVariant(id)).runtimeSpec)?.name ?? '';
}

/** `with`'s runtime in place of `side`'s, keeping side's flags and environment (and its A/A copy number). */
function replaced(side: string, by: VariantSpec): string {
  const own = parseVariant(baseVariant(side));
  const copy = COPY.exec(side)?.[0] ?? '';
  const parts = [by.runtimeSpec, ...own.flags, ...by.flags.filter((f) => !own.flags.includes(f)), ...Object.entries({ ...own.env, ...by.env }).map(([k, v]) => `${k}=${v}`), ...pinParts(own), ...pinParts(by)];
  return `${parseVariant(parts.map(quotePart).join(' ')).id}${copy}`;
}

const pinParts = (spec: VariantSpec): string[] => (spec.packages ?? []).map(pinText);

/** `side` with `pins`'s packages pinned too (its A/A copy number kept). */
function pinned(side: string, pins: VariantSpec): string {
  const copy = COPY.exec(side)?.[0] ?? '';
  return `${parseVariant([baseVariant(side), ...pinParts(pins).map(quotePart)].join(' ')).id}${copy}`;
}

/** The checks with a package version pinned on both sides (`--across react@18.3.1,…`: each claim on that version). */
export function pinVariants(checks: readonly PlannedCheck[], pins: VariantSpec): PlannedCheck[] {
  return checks.map((check) => ({ ...check, subject: { ...check.subject, variantId: pinned(check.subject.variantId, pins) }, other: { ...check.other, variantId: pinned(check.other.variantId, pins) } }));
}

/**
 * The checks with each replacement's runtime put in: both sides when they are
 * the same runtime as written (node@26 and "node@26 --flag"), the subject
 * alone when the two are different releases of it (node@26 against node@24
 * asks whether the replacement still beats node@24). Checks that touch no
 * replaced runtime are left out: the replacement cannot change them.
 */
export function replaceVariants(checks: readonly PlannedCheck[], replacements: readonly VariantSpec[]): PlannedCheck[] {
  if (!replacements.length) return [...checks];
  const byRuntime = new Map<string, VariantSpec>();
  for (const r of replacements) {
    const runtime = pluginForSpec(r.runtimeSpec)!.name;
    if (byRuntime.has(runtime)) throw new UsageError(`--runtime names two replacements for ${runtime} (${byRuntime.get(runtime)!.id}, ${r.id}); check one at a time, or use --across`);
    byRuntime.set(runtime, r);
  }
  const out: PlannedCheck[] = [];
  for (const check of checks) {
    const s = byRuntime.get(runtimeOf(check.subject.variantId));
    const o = byRuntime.get(runtimeOf(check.other.variantId));
    if (!s && !o) continue;
    const sameRelease = parseVariant(baseVariant(check.subject.variantId)).runtimeSpec === parseVariant(baseVariant(check.other.variantId)).runtimeSpec;
    const subject = s ? replaced(check.subject.variantId, s) : check.subject.variantId;
    const other = o && (sameRelease || !s) ? replaced(check.other.variantId, o) : check.other.variantId;
    // A release put in on one side only may meet itself on the other (node@24 against node@24): an A/A check.
    const aa = subject === other && check.subject.caseId === check.other.caseId && !isBound(check.expect);
    out.push({ ...check, subject: { ...check.subject, variantId: subject }, other: { ...check.other, variantId: aa ? `${other} #2` : other } });
  }
  return out;
}

/** The runs that decide the checks of one suite: one per measurer and set of variants, each with only its cases. */
export function claimRuns(suite: string, checks: readonly PlannedCheck[]): ClaimsRunPlan[] {
  const groups = new Map<string, ClaimsRunPlan>();
  for (const check of checks) {
    const variants = [...new Set([check.other.variantId, check.subject.variantId])];
    const measure = check.measure === 'peakRss' ? 'time' : check.measure;
    const key = `${measure}\u0000${[...variants].sort().join('\u0000')}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { suite, measure, variants, cases: [], checks: [] }));
    for (const c of [check.other.caseId, check.subject.caseId]) if (!group.cases.includes(c)) group.cases.push(c);
    group.checks.push(check);
  }
  // Groups become one run while that costs no more: a run measures every case on every variant (cells), and a run of its own costs about one cell more.
  const merged = mergeCheaper([...groups.values()]);
  // An A/A check's second arm comes after every first one, as the compare arms number them ("#2").
  for (const g of merged) g.variants.sort((a, b) => Number(COPY.test(a)) - Number(COPY.test(b)));
  return merged;
}

const cells = (g: Pick<ClaimsRunPlan, 'variants' | 'cases'>): number => g.variants.length * g.cases.length;
const union = (a: readonly string[], b: readonly string[]): string[] => [...a, ...b.filter((x) => !a.includes(x))];

/** Merges two runs of one measurer wherever the merged run has no more cells than the two had, plus one; the best merge first. */
function mergeCheaper(groups: ClaimsRunPlan[]): ClaimsRunPlan[] {
  const runs = [...groups];
  for (;;) {
    let best: { i: number; j: number; saved: number } | undefined;
    for (let i = 0; i < runs.length; i++) {
      for (let j = i + 1; j < runs.length; j++) {
        const a = runs[i]!;
        const b = runs[j]!;
        if (a.measure !== b.measure) continue;
        const saved = cells(a) + cells(b) + 1 - cells({ variants: union(a.variants, b.variants), cases: union(a.cases, b.cases) });
        if (saved >= 0 && (!best || saved > best.saved)) best = { i, j, saved };
      }
    }
    if (!best) return runs;
    const a = runs[best.i]!;
    const b = runs[best.j]!;
    runs[best.i] = { ...a, variants: union(a.variants, b.variants), cases: union(a.cases, b.cases), checks: [...a.checks, ...b.checks] };
    runs.splice(best.j, 1);
  }
}

/** When a unit of the run (a case, or a request's figures) needs no more sets: every check on its cases is decided. */
export function settledWhen(plan: ClaimsRunPlan, family: ClaimFamily): NonNullable<RunRequest['settled']> {
  return (unit, run) => {
    const ids = new Set(unit.cases.map((c) => c.id));
    const on = plan.checks.filter((c) => ids.has(c.subject.caseId) || ids.has(c.other.caseId));
    return checkClaims(run, on, family).every((o) => o.word !== 'undecided');
  };
}

/** A variant id as one --compare/--runtime argument (its parts quoted as needed). */
export function variantArgument(id: string): string {
  const spec = parseVariant(id);
  return [spec.runtimeSpec, ...spec.flags, ...Object.entries(spec.env).map(([k, v]) => `${k}=${v}`), ...pinParts(spec)].map(quotePart).join(' ');
}
