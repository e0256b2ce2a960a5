/**
 * Claims runs as `rtbench claims` saves them, made up: a run's variants (a
 * release, or a build of your own by path) and its claims block's outcomes.
 * Only the fields the matrix reads are filled.
 */
import type { ClaimOutcome, ClaimWord } from '@rtbench/core/claims-schema';
import type { RunRecord, Variant } from '@rtbench/core/schema';
import type { GivenClaims, ReleaseOf } from '../src/index.ts';

/** A variant: `node@2` ran release 2 of node; `source: 'path'` a build of your own at that version. */
export function variant(id: string, runtime: string, version: string, source: Variant['source'] = 'npm'): Variant {
  return { id, runtime, spec: id.split(' ')[0]!, flags: id.split(' ').slice(1).filter((p) => p !== '#2'), version, source } as Variant;
}

export function outcome(says: string, subject: [caseId: string, variantId: string], other: [caseId: string, variantId: string], word: ClaimWord, suite = 'fake'): ClaimOutcome {
  return { says, suite, subject: { caseId: subject[0], variantId: subject[1] }, other: { caseId: other[0], variantId: other[1] }, expect: { kind: 'faster', factor: 1.5 }, measure: 'time', word, ratio: word === 'held' ? 0.5 : 0.9, interval: [0.45, 0.55], units: 6 };
}

export function claimsRun(id: string, startedAt: string, variants: Variant[], outcomes: ClaimOutcome[], suite = 'fake'): RunRecord {
  return { schema: 'rtbench.run', id, startedAt, suite, mode: 'compare', variants, cases: [], results: [], claims: { version: 1, confidence: 0.95, adjustment: 'Bonferroni', method: 't', outcomes } } as unknown as RunRecord;
}

/** One `--claims` argument holding these runs. */
export function given(path: string, ...runs: RunRecord[]): GivenClaims {
  return { path, runs: runs.map((run, i) => ({ run, file: `${path}/0${i + 1}-${run.suite}.json` })) };
}

/** The registry's answer, made up: any variant with a version not built by path is that release of its runtime. */
export const releaseOf: ReleaseOf = (v) => (v.version && v.source !== 'path' ? { runtime: v.runtime, tag: v.version } : undefined);
