/**
 * A suite's claims as checks: the claims its module exports, each expanded
 * over the cases it names (every parameter combination of a case named
 * without its parameters, paired with the other case's same combination)
 * and the variants it is checked on. A claim naming a case the suite lacks is
 * refused in one line before anything runs.
 */
import { importUserModule } from '@rtbench/process';
import { isBound } from '@rtbench/core/claims';
import { type ClaimSpec, type Expectation } from '@rtbench/core';
import { DEFAULT_RUNTIMES } from '@rtbench/runtime-registry';
import { listSuites, loadSuite, locateSuite, type SuiteLocation } from '@rtbench/suite-loader';
import { UsageError } from '@rtbench/core/usage-error';
import { parseVariant } from '@rtbench/arms';
import type { ClaimCheck } from '@rtbench/verdicts';

/** A check with the variants as specs (to resolve and, with --runtime, to replace). */
export type PlannedCheck = ClaimCheck;

function isClaimSpec(value: unknown): value is ClaimSpec {
  const v = value as Partial<ClaimSpec> | null;
  if (typeof v !== 'object' || v === null || typeof v.says !== 'string' || typeof v.case !== 'string' || typeof v.is !== 'object' || v.is === null) return false;
  // An absolute bound has no other side; every other claim has one.
  return isBound(v.is as Expectation) ? v.than === undefined : typeof v.than === 'object';
}

/** The claims a suite module exports (`export const claims = [claim(…), …]`); none: an empty list. */
export async function suiteClaims(location: SuiteLocation): Promise<ClaimSpec[]> {
  let mod: { claims?: unknown };
  try {
    mod = (await importUserModule(location.entry)) as { claims?: unknown };
  } catch (error) {
    throw new UsageError(`suite "${location.name}" does not load: ${(error as Error).message.split('\n')[0]}`);
  }
  if (mod.claims === undefined) return [];
  if (!Array.isArray(mod.claims) || !mod.claims.every(isClaimSpec)) {
    throw new UsageError(`${location.entry}: \`export const claims\` must be a list of claim(…) from @rtbench/core`);
  }
  const seen = new Set<string>();
  for (const c of mod.claims) {
    if (seen.has(c.says)) throw new UsageError(`suite "${location.name}" states the claim "${c.says}" twice`);
    seen.add(c.says);
  }
  return mod.claims;
}

const PARAMS = / \[[^\]]*\]$/;

/** The subject cases a claim names: the id itself, or every parameter combination of a case named without them. */
function subjectCases(claim: ClaimSpec, cases: readonly { id: string; params: Readonly<Record<string, unknown>> }[]): { id: string; params: Record<string, string | number | boolean> }[] {
  const named = cases.filter((c) => c.id === claim.case || (c.id.replace(PARAMS, '') === claim.case && !PARAMS.test(claim.case)));
  const where = claim.where ?? {};
  return named
    .filter((c) => Object.entries(where).every(([k, v]) => c.params[k] === v))
    .map((c) => ({ id: c.id, params: { ...(c.params as Record<string, string | number | boolean>) } }));
}

/** Every check of the suite's claims on its cases; `variants` stands in for a claim that names none. */
export function expandClaims(suite: string, claims: readonly ClaimSpec[], cases: readonly { id: string; params: Readonly<Record<string, unknown>> }[], variants: readonly string[] = DEFAULT_RUNTIMES): PlannedCheck[] {
  const ids = new Set(cases.map((c) => c.id));
  const checks: PlannedCheck[] = [];
  for (const claim of claims) {
    const where = `suite "${suite}", claim "${claim.says}"`;
    const subjects = subjectCases(claim, cases);
    if (!subjects.length) throw new UsageError(`${where}: no case "${claim.case}"${claim.where ? ` with ${JSON.stringify(claim.where)}` : ''} (rtbench bench ${suite} --filter … lists them)`);
    const on = (claim.on ?? variants).map((text) => variantId(text, where));
    for (const s of subjects) {
      let otherCase = s.id;
      if (claim.than && 'case' in claim.than) {
        const suffix = PARAMS.exec(s.id)?.[0] ?? '';
        otherCase = ids.has(claim.than.case) ? claim.than.case : `${claim.than.case}${suffix}`;
        if (!ids.has(otherCase)) throw new UsageError(`${where}: no case "${otherCase}" to compare "${s.id}" with`);
      }
      const otherVariant = claim.than && 'variant' in claim.than ? variantId(claim.than.variant, where) : undefined;
      const multi = subjects.length > 1 && Object.keys(s.params).length > 0;
      for (const v of on) {
        // A case against itself on one variant is an A/A check: a second process of the same variant ("node@26 #2").
        // An absolute bound names no other side: its other side is the subject itself.
        const other = otherVariant ?? v;
        const same = claim.than !== undefined && otherCase === s.id && other === v;
        checks.push({
          says: claim.says,
          suite,
          subject: { caseId: s.id, variantId: v },
          other: { caseId: otherCase, variantId: same ? `${v} #2` : other },
          ...(multi ? { params: s.params } : {}),
          expect: claim.is,
          measure: claim.measure,
          ...(claim.quantile ? { quantile: claim.quantile } : {}),
        });
      }
    }
  }
  return checks;
}

function variantId(text: string, where: string): string {
  try {
    return parseVariant(text).id;
  } catch (error) {
    throw new UsageError(`${where}: ${(error as Error).message}`);
  }
}

/** A suite to check: where it is, its checks, and how it was typed. */
export interface SuiteChecks {
  location: SuiteLocation;
  checks: ClaimCheck[];
  /** The suite as typed on the command line (a bisect command names it so). */
  typed: string;
}

/** The suites named (or every suite that states claims), with the checks of the claims picked (`picked`: texts a claim's sentence contains). */
export async function suitesToCheck(names: readonly string[], picked: readonly string[] | undefined): Promise<SuiteChecks[]> {
  const locations = names.length ? names.map((n) => ({ ...locateSuite(n), typed: n })) : listSuites().map((l) => ({ ...l, typed: l.name }));
  const out: SuiteChecks[] = [];
  for (const { typed, ...location } of locations) {
    const stated = await suiteClaims(location);
    const claims = picked ? stated.filter((c) => picked.some((p) => c.says.toLowerCase().includes(p.toLowerCase()))) : stated;
    if (picked && !claims.length) continue;
    if (!claims.length) {
      if (names.length) throw new UsageError(`suite "${location.name}" states no claims (a suite states them with \`export const claims = [claim(…)]\`: docs/claims.md)`);
      continue;
    }
    const { suite, cases } = await loadSuite(location);
    // Checks and saved runs go by the suite's own name (a suite given as a path is still "claims-fixture").
    out.push({ location: { ...location, name: suite.name }, checks: expandClaims(suite.name, claims, cases), typed });
  }
  if (!out.length) throw new UsageError(picked ? `no claim says ${picked.map((p) => JSON.stringify(p)).join(' or ')}` : 'no suite states claims');
  return out;
}
