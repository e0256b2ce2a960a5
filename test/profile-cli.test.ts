/**
 * `--profile` through the CLI: after the run, a profile per case × variant in
 * an extra process, saved beside the run as .cpuprofile files; the table is
 * followed by the top functions and, for a comparison, where the time moved.
 * (packages/profile's own tests take profiles on all four runtimes.) No assertion is on time.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseRun } from '@rtbench/core/schema';
import { parseProfileManifest } from '@rtbench/core/profile-manifest';
import { fixture, runCli, tempFile } from './helpers/cli.ts';

describe('--profile', () => {
  it('a comparison whose arms differ in a slow helper: profiles saved beside the run, the helper on top and first in where the time moved', () => {
    const out = tempFile('run.json');
    const r = runCli(['bench', fixture('profile-hot'), '--compare', 'node', 'node PROFILE_HOT_SLOW=4', '--rounds', '2', '--time', '50ms', '--warmup', '10ms', '--quiet', '--profile', '--save', out]);
    expect(r.status, r.stderr).toBe(0);
    expect(parseRun(JSON.parse(readFileSync(out, 'utf8')), out).status).toBe('complete');
    const dir = out.replace(/\.json$/, '.profiles');
    const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).sort();
    expect(files).toHaveLength(2);
    for (const f of files) expect((JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')) as { samples: unknown[] }).samples.length).toBeGreaterThan(100);
    // Each variant's top function, then the diff's first row.
    const tops = [...r.stdout.matchAll(/^self\s+total\s+category\s+function\s+where\n\s*\S+\s+\S+\s+(\S+)\s+(\S+)/gm)].map((m) => [m[1], m[2]]);
    expect(tops).toEqual([['benchmark', 'slowHelper'], ['benchmark', 'slowHelper']]);
    expect(r.stdout).toMatch(/where the time moved, node → node PROFILE_HOT_SLOW=4\n(?:.*\n)?\s*change.*\n\s*\+[\d.]+ pt .*slowHelper/);
  });

  it('--profile alloc: allocation profiles of both arms beside the run, listed in the manifest, the allocating helper first in where the bytes moved', () => {
    const out = tempFile('run.json');
    const r = runCli(['bench', fixture('profile-alloc'), '--compare', 'node', 'node PROFILE_ALLOC_BIG=4', '--rounds', '2', '--time', '50ms', '--warmup', '10ms', '--quiet', '--profile', 'alloc', '--save', out]);
    expect(r.status, r.stderr).toBe(0);
    const dir = out.replace(/\.json$/, '.profiles');
    // Only what was asked for: no CPU profile.
    expect(readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))).toEqual([]);
    const files = readdirSync(dir).filter((f) => f.endsWith('.heapprofile')).sort();
    expect(files).toHaveLength(2);
    for (const f of files) expect((JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')) as { head: { children: unknown[] } }).head.children.length).toBeGreaterThan(0);
    const manifest = parseProfileManifest(JSON.parse(readFileSync(`${dir}/profiles.json`, 'utf8')), 'profiles.json');
    expect(manifest.profiles).toEqual([]);
    expect(manifest.allocations?.map((a) => [a.status, a.file, a.top?.[0]?.name])).toEqual(files.map((f) => ['ok', f, 'allocHelper']).sort((x, y) => (x[1]! < y[1]! ? -1 : 1)));
    expect(manifest.allocationDiffs?.[0]?.movers[0]?.name).toBe('allocHelper');
    // Each variant's top allocating function, then the diff's first row.
    const tops = [...r.stdout.matchAll(/^self\s+total\s+self\/op\s+category\s+function\s+where\n\s*\S+\s+\S+\s+\S+ \S+\s+(\S+)\s+(\S+)/gm)].map((m) => [m[1], m[2]]);
    expect(tops, r.stdout).toEqual([['benchmark', 'allocHelper'], ['benchmark', 'allocHelper']]);
    expect(r.stdout).toMatch(/where the allocated bytes moved, node → node PROFILE_ALLOC_BIG=4\n(?:.*\n)?\s*change.*\n\s*\+[\d.]+ pt .*allocHelper/);
  });

  it('refuses a suite timed by the host, before running anything', () => {
    const r = runCli(['bench', 'cold-start', '--runtime', 'node', '--profile', '--quiet']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--profile profiles cases that run inside the runtime/);
  });
});
