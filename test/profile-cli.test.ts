/**
 * `--profile` through the CLI: after the run, a profile per case × variant in
 * an extra process, saved beside the run as .cpuprofile files; the table is
 * followed by the top functions and, for a comparison, where the time moved.
 * (packages/profile's own tests take profiles on all four runtimes; --profile
 * alloc through the CLI is read in test/browser/flame-alloc.test.ts, from the
 * run its page is made of; what --profile refuses, in the test's own process:
 * packages/cli/test/usage-probed.test.ts.) No assertion is on time.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseRun } from '@rtbench/core/schema';
import { profiledComparison } from './helpers/profiled-comparison.ts';

describe('--profile', () => {
  it('a comparison whose arms differ in a slow helper: profiles saved beside the run, the helper on top where it does most of the work and first in where the time moved', async () => {
    // The pool's run (test/helpers/profiled-comparison.ts; test/browser/flame.test.ts draws its pages): the helper's work
    // 10 iterations against 800, so its share grows by what the two steady helpers lose together and it is first where
    // the time moved whatever tier each process was in. Its table went to a page: the summary is on stderr.
    const { runPath: out, stderr } = await profiledComparison();
    expect(parseRun(JSON.parse(readFileSync(out, 'utf8')), out).status).toBe('complete');
    const dir = out.replace(/\.json$/, '.profiles');
    const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).sort();
    expect(files).toHaveLength(2);
    for (const f of files) expect((JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')) as { samples: unknown[] }).samples.length).toBeGreaterThan(100);
    // Each variant's top function (a steady helper where the hot one does little), then the diff's first row.
    const tops = [...stderr.matchAll(/^self\s+total\s+category\s+function\s+where\n\s*\S+\s+\S+\s+(\S+)\s+(\S+)/gm)].map((m) => [m[1], m[2]]);
    expect(tops).toEqual([['benchmark', expect.stringMatching(/^steadyHelper[AB]$/)], ['benchmark', 'slowHelper']]);
    expect(stderr).toMatch(/where the time moved, node PROFILE_HOT_SLOW=0\.05 → node PROFILE_HOT_SLOW=4\n(?:.*\n)?\s*change.*\n\s*\+[\d.]+ pt .*slowHelper/);
  });
});
