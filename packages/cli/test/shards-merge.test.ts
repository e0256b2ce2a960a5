/**
 * rtbench merge on runs made here (no process): shards of one run come from
 * the same code, or are refused in one line naming what differs; a shard
 * with no cases (more shards than cases) merges like any other.
 */
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { mergeShards } from '@rtbench/saved-runs';
import { shardCases } from '../src/shards/shard.ts';
import { syntheticRun } from '../../../test/compare-synthetic.ts';
import { refusal } from '../../../test/helpers/refusal.ts';

const CASES = [{ id: 'a', ns: 100 }, { id: 'b', ns: 200 }, { id: 'c', ns: 300 }];
const whole = syntheticRun({ mode: 'bench', cases: CASES, arms: [{ id: 'node', factor: 1 }, { id: 'bun', factor: 0.8 }], rounds: 3 });
const CODE = { git: { commit: 'a'.repeat(40), dirty: false }, suiteCode: [{ runtime: 'node' as const, sha256: '1111111111111111' }, { runtime: 'bun' as const, sha256: '2222222222222222' }] };

/** Shard i of n of `whole`, as --shard i/n would have made it. */
function shard(index: number, count: number, change: Partial<RunRecord> = {}): { run: RunRecord; file: string } {
  const cases = shardCases(whole.cases, { index, count });
  const run: RunRecord = {
    ...whole,
    ...CODE,
    options: { ...whole.options, shard: { index, count } },
    cases,
    results: whole.results.filter((r) => cases.some((c) => c.id === r.caseId)),
    ...change,
  };
  return { run, file: `s${index}.json` };
}

describe('rtbench merge', () => {
  it('takes empty shards: five shards of three cases merge into the whole run', () => {
    const shards = [1, 2, 3, 4, 5].map((i) => shard(i, 5));
    expect(shards.map((s) => s.run.cases.length)).toEqual([1, 1, 1, 0, 0]);
    const merged = mergeShards(shards);
    expect(merged.cases.map((c) => c.id)).toEqual(['a', 'b', 'c']);
    expect(merged.results.map((r) => [r.caseId, r.variantId])).toEqual(whole.results.map((r) => [r.caseId, r.variantId]));
    expect(merged.shards!.map((s) => s.cases.length)).toEqual([1, 1, 1, 0, 0]);
    expect(merged.status).toBe('complete');
  });

  it('refuses shards from another rtbench commit or version, in one line naming both', () => {
    const other = shard(2, 2, { git: { commit: 'b'.repeat(40), dirty: false } });
    expect(refusal(() => mergeShards([shard(1, 2), other]))).toBe(`s2.json does not belong with s1.json: made by rtbench commit ${'b'.repeat(12)}, not rtbench commit ${'a'.repeat(12)}`);
    const { git: _git, ...installed } = shard(2, 2).run;
    expect(refusal(() => mergeShards([shard(1, 2), { run: { ...installed, rtbenchVersion: '0.2.0' }, file: 's2.json' }]))).toMatch(/made by rtbench 0\.2\.0, not rtbench commit a{12}$/);
  });

  it('refuses a shard of another file of the same name (its bundle differs), naming the runtime and both hashes', () => {
    const other = shard(2, 2, { suiteCode: [{ runtime: 'node', sha256: '1111111111111111' }, { runtime: 'bun', sha256: '3333333333333333' }] });
    expect(refusal(() => mergeShards([shard(1, 2), other]))).toBe(
      's2.json does not belong with s1.json: other code for suite "synthetic" (its bun bundle is 3333333333333333, not 2222222222222222): another file of that name, or another version of it',
    );
  });

  it('merges runs saved before bundles were recorded (no suiteCode)', () => {
    const { suiteCode: _a, ...older1 } = shard(1, 2).run;
    const { suiteCode: _b, ...older2 } = shard(2, 2).run;
    expect(mergeShards([{ run: older1, file: 's1.json' }, { run: older2, file: 's2.json' }]).cases).toHaveLength(3);
  });
});
