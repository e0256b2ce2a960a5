/** The smoke check of a suite's run (test/suites.test.ts), shared with the files that run part of a suite for it. */
import { expect } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';

/** Every case has a result on `variant`: ok with samples and a digest, or unsupported with its reason; no other failure or warning. */
export function expectEveryCaseRan(run: RunRecord, variant: string): void {
  expect(run.cases.length).toBeGreaterThan(0);
  for (const c of run.cases) {
    const result = run.results.find((x) => x.caseId === c.id && x.variantId === variant);
    expect(result, `no result for "${c.id}"`).toBeDefined();
    const problems = result!.failures.filter((f) => f.kind !== 'unsupported').map((f) => `${f.kind}: ${f.message}`);
    expect(problems, `"${c.id}"`).toEqual([]);
    if (result!.status === 'unsupported') {
      expect(result!.failures[0]?.message, `"${c.id}" is unsupported without a reason`).toBeTruthy();
    } else {
      expect(result!.status, `"${c.id}"`).toBe('ok');
      expect(result!.rounds[0]?.samples.length, `"${c.id}" has no samples`).toBeGreaterThan(0);
      expect(result!.rounds[0]?.digest.hash).toMatch(/^[0-9a-f]{16}$/);
    }
  }
}
