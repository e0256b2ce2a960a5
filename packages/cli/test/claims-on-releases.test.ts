/**
 * Claims runs handed to a release matrix (`releases --claims`), on the
 * committed claims run (results/claims-20261124-035723Z): each argument read
 * or refused in one line, a variant named as the release it ran (by the
 * runtime's own plug-in, a build by path never), a suite by the name its
 * claims runs record (its own, when typed as a path), and the outcomes matched to
 * the tracks of that runtime and suite whose releases include it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Variant } from '@rtbench/core/schema';
import { claimsSuiteNames, loadClaimsRuns, releaseOfVariant } from '@rtbench/claims';
import { matchClaims } from '@rtbench/releases';
import { fixture, repoRoot } from '../../../test/helpers/cli.ts';
import type { ReleaseTrack } from '@rtbench/verdicts';

const FOLDER = join(repoRoot, 'results/claims-20261124-035723Z');
const PLAIN_RUN = join(repoRoot, 'results/20261121-124315Z-json-reviver.json');

function track(runtime: string, suite: string, releases: string[]): ReleaseTrack {
  return { key: `${runtime} × ${suite}`, runtime, extra: [], suite, range: `${runtime}@${releases[0]}..${runtime}@${releases.at(-1)}`, listed: releases, releases };
}

describe('claims runs for a release matrix', () => {
  it('reads a claims folder or one of its runs, and refuses in one line what is not there or checked no claim', () => {
    const [folder, one] = loadClaimsRuns([FOLDER, join(FOLDER, '08-json-reviver.json')]);
    expect(folder!.runs).toHaveLength(17);
    expect(one!.runs.map((r) => r.run.suite)).toEqual(['json-reviver']);
    expect(() => loadClaimsRuns([join(FOLDER, 'nowhere')])).toThrow(/^--claims .*nowhere: no such file or folder/);
    expect(() => loadClaimsRuns([PLAIN_RUN])).toThrow(/^--claims .*json-reviver\.json: a run that checked no claims/);
    const empty = mkdtempSync(join(tmpdir(), 'rtbench-claims-none-'));
    writeFileSync(join(empty, 'notes.txt'), 'x');
    expect(() => loadClaimsRuns([empty])).toThrow(/holds no run that checked claims/);
  });

  it('names a variant by the release it ran, as the matrix does; a build by path is none', () => {
    const run = loadClaimsRuns([join(FOLDER, '01-buffer-concat.json')])[0]!.runs[0]!.run;
    const byId = Object.fromEntries(run.variants.map((v) => [v.id, releaseOfVariant(v)]));
    expect(byId.node).toEqual({ runtime: 'node', tag: '26.10.0' });
    expect(byId.deno).toEqual({ runtime: 'deno', tag: '2.9.6' });
    expect(byId.workerd).toEqual({ runtime: 'workerd', tag: '2026-11-17' });
    expect(releaseOfVariant({ ...run.variants[0]!, spec: 'node=/src/node/out/Release/node', source: 'path' } satisfies Variant)).toBeUndefined();
    expect(releaseOfVariant({ ...run.variants[0]!, version: undefined } as Variant)).toBeUndefined();
  });

  it('names a suite as its claims runs do: by its own name, also when typed as a path', async () => {
    const nameOf = await claimsSuiteNames([fixture('tiny'), 'json-reviver']);
    expect(nameOf(fixture('tiny'))).toBe('tiny');
    expect(nameOf('json-reviver')).toBe('json-reviver');
  });

  it("matches the committed run's outcomes to the tracks of their runtime, suite and release", () => {
    const tracks = [track('node', 'json-reviver', ['24.21.0', '26.9.0', '26.10.0']), track('deno', 'json-reviver', ['2.9.5', '2.9.6']), track('node', 'trig', ['20.20.2', '26.10.0'])];
    const found = matchClaims(tracks, loadClaimsRuns([FOLDER]), releaseOfVariant, (s) => s);
    const on = (key: string, release: string): number => found.filter((c) => c.track === key && c.release === release).length;
    expect(on('node × json-reviver', '26.10.0')).toBeGreaterThan(1);
    expect(on('node × json-reviver', '24.21.0')).toBe(0);
    expect(on('deno × json-reviver', '2.9.6')).toBeGreaterThan(0);
    // node@26 against node@24: at 26.10.0, the other release kept as it is.
    const across = found.find((c) => c.track === 'node × json-reviver' && c.outcome.says.startsWith('Reviver parsing is at least 1.5× faster'))!;
    expect(across.sides).toEqual({ subject: 'node', other: 'node@24' });
    expect(found.filter((c) => c.track === 'node × trig').map((c) => c.release)).toContain('26.10.0');
    expect(found.some((c) => c.outcome.suite !== c.track.split(' × ')[1])).toBe(false);
    expect(() => matchClaims([track('node', 'json-reviver', ['25.0.0', '25.1.0'])], loadClaimsRuns([join(FOLDER, '08-json-reviver.json')]), releaseOfVariant, (s) => s)).toThrow(
      /^--claims .*08-json-reviver\.json: no claim in it was checked on a release of this matrix's tracks \(it checked json-reviver on node 24\.21\.0, node 26\.10\.0; the tracks: node × json-reviver 25\.0\.0–25\.1\.0\)$/,
    );
  });
});
