/**
 * What the repository tracks under results/: saved runs a document cites, never
 * state a user's own run reads and writes (a bisect's steps, caches). A bisect
 * resumes from results/bisect/<slug>, so a tracked step there would be replayed
 * as if measured on the user's machine.
 */
import { spawnSync } from 'node:child_process';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { campaignFolder } from '../packages/campaign/src/campaign.ts';
import { defaultResultsPath } from '../packages/saved-runs/src/results-file.ts';
import { repoRoot } from './helpers/cli.ts';

function tracked(path: string): string[] {
  const r = spawnSync('git', ['ls-files', '--', path], { cwd: repoRoot, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.split('\n').filter(Boolean);
}

describe('tracked state', () => {
  it('tracks no bisect state and no cache where a run writes its own', () => {
    expect(tracked('results/bisect')).toEqual([]);
    expect(tracked('.rtbench-cache')).toEqual([]);
  });

  it('tracks results/ as saved runs, claims folders and its README only, one level deep', () => {
    const files = tracked('results');
    expect(files.length).toBeGreaterThan(0);
    const odd = files.filter((f) => !/^results\/(README\.md|\d{8}-\d{6}Z-[A-Za-z0-9][A-Za-z0-9._@-]*\.json|claims-\d{8}-\d{6}Z\/[^/]+\.json)$/.test(f));
    expect(odd).toEqual([]);
  });

  it("leaves a clone's tree clean after a run: what a run, its page and a campaign write under results/ is ignored, its README is not", () => {
    const results = join(repoRoot, 'results');
    const run = defaultResultsPath({ startedAt: '2099-01-01T00:00:00.000Z', suite: 'json-reviver', mode: 'bench' }, results);
    const written = [run, run.replace(/\.json$/, '.html'), defaultResultsPath({ startedAt: '2099-01-01T00:00:00.000Z', suite: 'gc-pressure', mode: 'compare' }, results), join(results, '.partial-1.json'), join(campaignFolder(results, 'bisect', ['node@24..node@26']), 'state.json')];
    const ignored = (path: string): boolean => spawnSync('git', ['check-ignore', '-q', '--no-index', relative(repoRoot, path)], { cwd: repoRoot }).status === 0;
    expect(written.filter((p) => !ignored(p))).toEqual([]);
    expect(ignored(join(results, 'README.md'))).toBe(false);
  });
});
