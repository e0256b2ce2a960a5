/**
 * The CLI reading `<run>.profiles/profiles.json` for an HTML report: none is
 * no flame graphs and no word; a file it cannot use (not JSON, not a
 * manifest, taken after another run) is no flame graphs and one line saying
 * why. No runtime is started.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadProfileManifest, profilesDir } from '../packages/run/src/profile-manifest.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A run path in a fresh folder, with `manifest` (text) written beside it when given. */
function runWith(manifest?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'rtbench-manifest-'));
  dirs.push(dir);
  const run = join(dir, 'run.json');
  if (manifest !== undefined) {
    mkdirSync(profilesDir(run));
    writeFileSync(join(profilesDir(run), 'profiles.json'), manifest);
  }
  return run;
}

const tree = { totalMs: 1, samples: 4, minShare: 0.002, nodes: 1, root: { name: '(root)', category: 'engine', selfMs: 1, totalMs: 1, children: [] } };
const manifest = (runId: string): string => JSON.stringify({ version: 1, runId, profiles: [{ caseId: 'c', variantId: 'node', status: 'ok', file: 'c--node.cpuprofile', tree }], diffs: [] });

describe('loadProfileManifest', () => {
  it('reads the manifest of the same run', () => {
    const warnings: string[] = [];
    const m = loadProfileManifest(runWith(manifest('run-1')), 'run-1', (l) => warnings.push(l));
    expect(m?.profiles[0]?.tree?.root.name).toBe('(root)');
    expect(warnings).toEqual([]);
  });

  it('reads allocation profiles beside CPU ones, and a manifest written before they existed has none', () => {
    const allocation = { caseId: 'c', variantId: 'node', status: 'ok', file: 'c--node.heapprofile', window: { method: 'lockstep', samples: 40, ops: 5000, warmupBytes: 0 }, totalBytes: 6e7, bytesPerOp: 12000, top: [{ name: 'allocHelper', category: 'benchmark', selfBytes: 5e7, selfShare: 0.83, selfBytesPerOp: 10000 }] };
    const withAlloc = JSON.stringify({ ...JSON.parse(manifest('run-1')), allocations: [allocation, { caseId: 'c', variantId: 'bun', status: 'unavailable', reason: 'no sampling heap profiler' }], allocationDiffs: [] });
    const m = loadProfileManifest(runWith(withAlloc), 'run-1', () => {});
    expect(m?.allocations?.map((a) => a.status)).toEqual(['ok', 'unavailable']);
    expect(m?.allocations?.[0]?.top?.[0]?.name).toBe('allocHelper');
    expect(loadProfileManifest(runWith(manifest('run-1')), 'run-1', () => {})?.allocations).toBeUndefined();
  });

  it('is silent when the run has no profiles', () => {
    const warnings: string[] = [];
    expect(loadProfileManifest(runWith(), 'run-1', (l) => warnings.push(l))).toBeUndefined();
    expect(warnings).toEqual([]);
  });

  it.each([
    ['not JSON', '{"version": 1,', /profiles\.json is not JSON$/],
    ['not a manifest', JSON.stringify({ version: 1, runId: 'run-1', profiles: [{ caseId: 'c' }], diffs: [] }), /is not an rtbench profiles manifest: profiles\.0\.variantId: /],
    ['taken after another run', manifest('run-0'), /was taken after run run-0, not this one \(run-1\)$/],
  ])('leaves out a manifest that is %s, in one line', (_what, text, why) => {
    const warnings: string[] = [];
    expect(loadProfileManifest(runWith(text), 'run-1', (l) => warnings.push(l))).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^the HTML report has no flame graphs: /);
    expect(warnings[0]).toMatch(why);
  });
});
