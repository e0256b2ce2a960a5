/**
 * Shard runs merged into one run: what is refused (runs that do not belong
 * together, a shard missing, given twice or not a shard, a case in two
 * shards), each in one line, and what the merged run holds (every case in
 * the suite's order, each shard's results, machine and time, the worst
 * status, the earliest start and the latest end).
 */
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { syntheticRun } from '../../../test/compare-synthetic.ts';
import { mergeShards } from '../src/merge-shards.ts';
import { refusal } from '../../../test/helpers/refusal.ts';

const CASES = ['a', 'b', 'c', 'd', 'e'].map((id, i) => ({ id, ns: 100 * (i + 1) }));
const whole = syntheticRun({ cases: CASES, arms: [{ id: 'node', factor: 1 }, { id: 'bun', factor: 0.8 }], rounds: 2, samplesPerRound: 3 });
const CODE = { git: { commit: 'a'.repeat(40), dirty: false }, suiteCode: [{ runtime: 'node' as const, sha256: '1'.repeat(16) }, { runtime: 'bun' as const, sha256: '2'.repeat(16), variants: ['bun'] }] };

type Shard = { run: RunRecord; file: string };

/** Shard `index` of `count` of `whole`: its cases dealt round-robin, as --shard deals them. */
function shard(index: number, count: number, change: Partial<RunRecord> = {}): Shard {
  const cases = whole.cases.filter((_, i) => i % count === index - 1);
  const run: RunRecord = {
    ...whole,
    ...CODE,
    id: `shard-${index}`,
    startedAt: `2026-01-0${index}T00:00:00.000Z`,
    finishedAt: `2026-01-0${index}T01:00:00.000Z`,
    host: { ...whole.host, cpuModel: `CPU ${index}` },
    options: { ...whole.options, seed: index, shard: { index, count } },
    cases,
    results: whole.results.filter((r) => cases.some((c) => c.id === r.caseId)),
    ...change,
  };
  return { run, file: `s${index}.json` };
}


describe('shards merged into one run', () => {
  it('hold every case in the order the suite dealt them, and each case\'s results once', () => {
    const merged = mergeShards([shard(3, 3), shard(1, 3), shard(2, 3)]);
    expect(merged.cases.map((c) => c.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(merged.results.map((r) => `${r.caseId} ${r.variantId}`)).toEqual(whole.results.map((r) => `${r.caseId} ${r.variantId}`));
    expect(merged.results[0]).toBe(whole.results[0]);
  });

  it('keep each shard\'s machine, time, file and cases in shard order, the first shard\'s run for the rest, and no shard option', () => {
    const merged = mergeShards([shard(2, 2), shard(1, 2)]);
    expect(merged.shards).toEqual([
      { index: 1, count: 2, file: 's1.json', host: shard(1, 2).run.host, startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T01:00:00.000Z', cases: ['a', 'c', 'e'] },
      { index: 2, count: 2, file: 's2.json', host: shard(2, 2).run.host, startedAt: '2026-01-02T00:00:00.000Z', finishedAt: '2026-01-02T01:00:00.000Z', cases: ['b', 'd'] },
    ]);
    expect(merged.host.cpuModel).toBe('CPU 1');
    expect(merged.options.shard).toBeUndefined();
    expect(merged.options.seed).toBe(1);
    expect(merged.id).toBe('2026-01-01T00:00:00.000Z-synthetic-merged-2');
    expect(merged.startedAt).toBe('2026-01-01T00:00:00.000Z');
    expect(merged.finishedAt).toBe('2026-01-02T01:00:00.000Z');
  });

  it('start at the earliest shard\'s start and end at the latest end, whatever the shards\' order', () => {
    const late = shard(1, 2, { startedAt: '2026-01-05T00:00:00.000Z', finishedAt: '2026-01-05T02:00:00.000Z' });
    const merged = mergeShards([late, shard(2, 2, { finishedAt: '2026-01-02T00:30:00.000Z' })]);
    expect([merged.startedAt, merged.finishedAt]).toEqual(['2026-01-02T00:00:00.000Z', '2026-01-05T02:00:00.000Z']);
    const three = mergeShards([shard(1, 3, { finishedAt: '2026-01-09T00:00:00.000Z' }), shard(2, 3), shard(3, 3, { startedAt: '2025-12-31T00:00:00.000Z' })]);
    expect([three.startedAt, three.finishedAt]).toEqual(['2025-12-31T00:00:00.000Z', '2026-01-09T00:00:00.000Z']);
  });

  it('are interrupted if one shard was, else failed if one failed, else complete', () => {
    const status = (a: RunRecord['status'], b: RunRecord['status']) => mergeShards([shard(1, 2, { status: a }), shard(2, 2, { status: b })]).status;
    expect(status('complete', 'complete')).toBe('complete');
    expect(status('complete', 'failed')).toBe('failed');
    expect(status('failed', 'interrupted')).toBe('interrupted');
    expect(status('interrupted', 'complete')).toBe('interrupted');
  });

  it('keep every shard\'s different work and rounded digests, in shard order; none rounded when no shard rounded', () => {
    const mismatch = (caseId: string) => ({ caseId, digests: { node: 'x', bun: 'y' } });
    const rounded = (caseId: string) => ({ caseId, digits: 3, digests: { node: 'x', bun: 'x' } });
    const merged = mergeShards([shard(2, 2, { digestMismatches: [mismatch('b')], digestsRounded: [rounded('d')] }), shard(1, 2, { digestMismatches: [mismatch('a')] })]);
    expect(merged.digestMismatches.map((m) => m.caseId)).toEqual(['a', 'b']);
    expect(merged.digestsRounded).toEqual([rounded('d')]);
    expect('digestsRounded' in mergeShards([shard(1, 2), shard(2, 2, { digestsRounded: [] })])).toBe(false);
  });

  it('take an empty shard (more shards than cases) like any other', () => {
    const merged = mergeShards([1, 2, 3, 4, 5, 6, 7].map((i) => shard(i, 7)));
    expect(merged.cases).toHaveLength(5);
    expect(merged.shards!.map((s) => s.cases.length)).toEqual([1, 1, 1, 1, 1, 0, 0]);
  });
});

describe('shards refused, in one line', () => {
  it('fewer than two runs', () => {
    expect(refusal(() => mergeShards([shard(1, 1)]))).toBe('rtbench merge: name two or more shard runs (made with --shard i/n)');
  });

  it('a run made without --shard, first or later', () => {
    const plain = { run: { ...shard(1, 2).run, options: whole.options }, file: 'plain.json' };
    expect(refusal(() => mergeShards([plain, shard(2, 2)]))).toBe('plain.json is not a shard run (made without --shard i/n)');
    expect(refusal(() => mergeShards([shard(1, 2), plain]))).toBe('plain.json is not a shard run (made without --shard i/n)');
  });

  it('another suite, mode, rtbench, bundle, variants, options or shard count, naming what differs', () => {
    const against = (other: Shard) => refusal(() => mergeShards([shard(1, 2), other]));
    expect(against(shard(2, 2, { suite: 'other' }))).toBe('s2.json does not belong with s1.json: suite "other", not "synthetic"');
    expect(against(shard(2, 2, { mode: 'compare' }))).toBe('s2.json does not belong with s1.json: mode compare, not bench');
    expect(against(shard(2, 2, { git: { commit: 'b'.repeat(40), dirty: false } }))).toBe(`s2.json does not belong with s1.json: made by rtbench commit ${'b'.repeat(12)}, not rtbench commit ${'a'.repeat(12)}`);
    const { git: _git, ...installed } = shard(2, 2).run;
    expect(against({ run: { ...installed, rtbenchVersion: '0.2.0' }, file: 's2.json' })).toBe(`s2.json does not belong with s1.json: made by rtbench 0.2.0, not rtbench commit ${'a'.repeat(12)}`);
    expect(against({ run: installed, file: 's2.json' })).toBe(`s2.json does not belong with s1.json: made by an unknown rtbench, not rtbench commit ${'a'.repeat(12)}`);
    const bundle = [CODE.suiteCode[0]!, { ...CODE.suiteCode[1]!, sha256: '3'.repeat(16) }];
    expect(against(shard(2, 2, { suiteCode: bundle }))).toBe(
      `s2.json does not belong with s1.json: other code for suite "synthetic" (its bun bundle is ${'3'.repeat(16)}, not ${'2'.repeat(16)}): another file of that name, or another version of it`,
    );
    const variants = 's2.json does not belong with s1.json: other variants or binaries (ids, flags, versions or sha256 differ)';
    const changed = (change: Partial<RunRecord['variants'][number]>) => shard(2, 2, { variants: whole.variants.map((v, i) => (i === 1 ? { ...v, ...change } : v)) });
    expect(against(changed({ id: 'deno' }))).toBe(variants);
    expect(against(changed({ spec: 'bun@1' }))).toBe(variants);
    expect(against(changed({ flags: ['--smol'] }))).toBe(variants);
    expect(against(changed({ binarySha256: 'c'.repeat(64) }))).toBe(variants);
    expect(against(changed({ version: '1.0.0' }))).toBe(variants);
    expect(against(changed({ unavailable: 'no binary' }))).toBe(variants);
    expect(against(shard(2, 2, { options: { ...whole.options, timeMs: 1, shard: { index: 2, count: 2 } } }))).toBe('s2.json does not belong with s1.json: other options (time, warmup, rounds, schedule, measurer, filter…)');
    expect(against(shard(2, 3))).toBe('s2.json does not belong with s1.json: 3 shards, not 2');
  });

  it('the first difference only, in the order suite, mode, code, variants, options, count', () => {
    const other = shard(2, 3, { suite: 'other', mode: 'compare', options: { ...whole.options, timeMs: 1, shard: { index: 2, count: 3 } } });
    expect(refusal(() => mergeShards([shard(1, 2), other]))).toContain('suite "other"');
    expect(refusal(() => mergeShards([shard(1, 2), shard(2, 3, { mode: 'compare' })]))).toContain('mode compare');
  });

  it('bundles the other shard has for another runtime or other variants are not compared; a variant list is matched as a list', () => {
    const elsewhere = [{ runtime: 'deno' as const, sha256: '9'.repeat(16) }, { runtime: 'bun' as const, sha256: '8'.repeat(16), variants: ['bun', 'x'] }, CODE.suiteCode[0]!];
    expect(mergeShards([shard(1, 2), shard(2, 2, { suiteCode: elsewhere })]).cases).toHaveLength(5);
    const { suiteCode: _a, ...older } = shard(1, 2).run;
    expect(mergeShards([{ run: older, file: 's1.json' }, shard(2, 2)]).cases).toHaveLength(5);
  });

  it('a shard given twice, or missing, naming which', () => {
    expect(refusal(() => mergeShards([shard(1, 3), shard(2, 3), shard(2, 3, { cases: [] })]))).toBe('shard 2/3 is given twice: s2.json and s2.json');
    expect(refusal(() => mergeShards([shard(1, 3), shard(3, 3)]))).toBe('shard 2/3 missing: a merged run must hold every case of the suite');
    expect(refusal(() => mergeShards([shard(1, 4), shard(3, 4)]))).toBe('shards 2/4, 4/4 missing: a merged run must hold every case of the suite');
  });

  it('a case in two shards', () => {
    const overlapping = shard(2, 2, { cases: [...shard(2, 2).run.cases, whole.cases[0]!] });
    expect(refusal(() => mergeShards([shard(1, 2), overlapping]))).toBe('case "a" is in s1.json and in s2.json: shards must not overlap');
  });
});
