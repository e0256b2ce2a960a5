/**
 * A suite measured in shards (--shard i/n, one after another here, one per CI
 * machine in practice) and merged is the run of the whole: every case, in the
 * suite's order, each with all its arms, each shard's machine recorded.
 * No assertion is on time. The runs are independent and made side by side.
 * Shards that do not belong together, and a shard past its count, are
 * refused in the test's own process (packages/cli/test/refused-inputs.test.ts).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseRun } from '@rtbench/core/schema';
import { fixture, runCliAsync as runCli, tempFile } from './helpers/cli.ts';

const QUICK = ['--runtime', 'node,bun', '--rounds', '1', '--time', '5ms', '--warmup', '5ms', '--fixed-warmup', '--quiet'];
const read = (file: string) => parseRun(JSON.parse(readFileSync(file, 'utf8')), file);

describe('--shard and rtbench merge', () => {
  it('two shards merged hold the cases of a whole run, in its order, with every arm', async () => {
    const whole = tempFile('whole.json');
    const shards = [tempFile('s1.json'), tempFile('s2.json')];
    const merged = tempFile('merged.json');
    const empty = tempFile('empty.json');
    const [wholeRun, s1, s2, e] = await Promise.all([
      runCli(['bench', fixture('tiny'), ...QUICK, '--save', whole]),
      ...shards.map((out, i) => runCli(['bench', fixture('tiny'), ...QUICK, '--shard', `${i + 1}/2`, '--save', out])),
      // More shards than cases: an empty shard is a shard (exit 0, a run with no cases, said in one line even with --quiet); merge takes it (shards-merge.test.ts).
      runCli(['bench', fixture('tiny'), ...QUICK, '--shard', '99/99', '--save', empty]),
    ]);
    expect(wholeRun!.status, wholeRun!.stderr).toBe(0);
    for (const r of [s1!, s2!]) expect(r.status, r.stderr).toBe(0);
    const [one, two] = shards.map(read);
    // The same code, recorded per runtime by its bundle's hash.
    expect(one!.suiteCode?.map((c) => c.runtime).sort()).toEqual(['bun', 'node']);
    expect(two!.suiteCode).toEqual(one!.suiteCode);
    // Dealt round-robin, no case in both, none split.
    expect(one!.cases.length + two!.cases.length).toBe(read(whole).cases.length);
    expect(one!.cases.filter((c) => two!.cases.some((d) => d.id === c.id))).toEqual([]);
    const m = await runCli(['merge', shards[1]!, shards[0]!, '--save', merged, '--format', 'csv']);
    expect(m.status, m.stderr).toBe(0);
    const run = read(merged);
    expect(run.cases.map((c) => c.id)).toEqual(read(whole).cases.map((c) => c.id));
    expect(run.results.map((r) => [r.caseId, r.variantId, r.status])).toEqual(read(whole).results.map((r) => [r.caseId, r.variantId, 'ok']));
    expect(run.options.shard).toBeUndefined();
    expect(run.shards!.map((s) => [s.index, s.count, s.cases.length])).toEqual([[1, 2, one!.cases.length], [2, 2, two!.cases.length]]);
    expect(run.shards!.every((s) => s.host.cpuModel.length > 0)).toBe(true);
    expect(m.stdout.split('\n').length).toBeGreaterThan(run.results.length);

    expect(e!.status, e!.stderr).toBe(0);
    expect(e!.stderr.trim().split('\n')).toEqual([`note: shard 99/99 holds no case (fewer cases than shards after --filter): nothing was measured; saved ${empty}, an empty shard for rtbench merge`]);
    expect(read(empty).cases).toEqual([]);
    expect(read(empty).suiteCode).toEqual(one!.suiteCode);
  });
});
