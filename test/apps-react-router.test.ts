/**
 * A React Router app (framework mode) brought as its folder (`rtbench run
 * <app folder>`): the tiny app in test/fixtures/apps/react-router, shaped as
 * React Router's Cloudflare template (its vite config uses the Cloudflare
 * Vite plugin, its Worker is workers/app.js), its dependencies installed
 * from its lockfile (scripts/app-fixture.ts). Built with its own
 * `react-router build` once per edition and served by the Node.js side's
 * server on node and by the plugin's Worker with its client files on
 * workerd: the same page on both, proven with the builds' names masked
 * (that a section only one edition renders still differs once React
 * Router's names are masked is packages/suite-loader/test/app-react-router.test.ts's,
 * on the pages these editions served; that such a page reads ≠ work naming
 * its line is test/apps-sveltekit.test.ts's run, the comparison being the
 * app suite's whichever framework). Served as any request case is: two
 * requests in flight to each server (--concurrency) and a CPU limit per
 * request (--cpu-limit). A second run reuses the app's build; in it an arm
 * pinning another version of a package the app declares (isbot, which its
 * server entry imports) builds a copy of the app with it installed and
 * proves the same page on node and on workerd. Those runs' builds are kept
 * per machine (test/helpers/app-run.ts); a third run builds the Node.js
 * edition afresh in a folder of its own, so each test run builds one app
 * (this one's edition builds fastest). The copy is the app suite's
 * whichever framework: this app's, built in half the time of the SvelteKit
 * app's, stands for every one. Small: one round of a smoke run (APP_RUN: a
 * few requests a server, figures not read).
 */
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { requestsOf } from '../packages/measurer-records/src/index.ts';
import { installedApp } from '../scripts/app-fixture.ts';
import { appRunEnv, expectSamePageServed, runApp, runFixtureApp } from './helpers/app-run.ts';
import type { CliResult } from './helpers/cli.ts';

describe('a React Router app, built with its own toolchain', () => {
  let r: CliResult;
  let record: RunRecord;
  beforeAll(async () => {
    ({ r, record } = await runFixtureApp('react-router', 'node,workerd', ['GET /'], ['--concurrency', '2', '--cpu-limit', '5ms', '--explain']));
    // The first run installs the app (npm ci) and builds it twice: more than a hook's default time on a loaded machine.
  }, 600_000);

  it('is recognised and said first: how each side is built and served', () => {
    expect(r.stderr).toMatch(/note: .* is a React Router \(framework mode\) app \(@react-router\/dev \d+\.\d+\.\d+, react-router\.config\.js, wrangler\.jsonc\): built with react-router build, once per edition/);
    expect(r.stderr).toMatch(/note: the Node\.js side is React Router's server build without the Cloudflare Vite plugin, .* by the app's own @react-router\/node \d+\.\d+\.\d+/);
    expect(r.stderr).toMatch(/note: the Workers side is the Worker the app's @cloudflare\/vite-plugin \d+\.\d+\.\d+ builds/);
    expect(r.stderr).toContain("note: the Workers runtime serves it with wrangler.jsonc's compatibility date 2025-09-01");
  });

  it('serves the page on node and workerd: the same work, the builds\' names masked', () => {
    expectSamePageServed(record, ['node', 'workerd']);
    expect(record.digestMismatches ?? []).toEqual([]);
  });

  it('is served as any request case: requests in flight to each server, and the share of requests over a CPU limit', () => {
    for (const result of record.results) expect(requestsOf(result.rounds[0]!)!.concurrency, `${result.variantId} ${result.caseId}`).toBe(2);
    expect(r.stdout).toContain('Client latency beside CPU per request (ms), 2 requests in flight to each server');
    expect(r.stdout).toMatch(/> 5 ms:\s+the\s+share\s+of\s+requests\s+over\s+the\s+limit/);
    for (const runtime of ['node', 'workerd']) expect(r.stdout, runtime).toMatch(new RegExp(`^  ${runtime} .*\\d%\\s+\\d+ in \\d+\\s*$`, 'm'));
  });

  // The second run: the app as it is on node, and an arm with another isbot on both sides.
  let arms: Awaited<ReturnType<typeof runApp>>;
  const app = (): string => installedApp('react-router');

  it('a second run reuses the build and says so by building nothing', async () => {
    arms = await runApp([app(), '--compare', 'node', 'node isbot@5.1.30', 'workerd isbot@5.1.30', '--rounds', '1', '--request', 'GET /']);
    expect(arms.r.status, arms.r.stderr).toBe(0);
    // Its arm of the app as it is (prepared first) builds nothing: a build said comes after the pinned copy's line, and is the copy's.
    // The copy's build is kept per machine too, so a second test run on the machine says none at all.
    const copyLine = arms.r.stderr.indexOf('an arm with isbot 5.1.30 builds from');
    expect(copyLine, arms.r.stderr).toBeGreaterThan(0);
    expect(arms.r.stderr.slice(0, copyLine), arms.r.stderr).not.toContain('building the app');
    expect(arms.r.stderr.slice(copyLine).match(/building the app/g)?.length ?? 0, arms.r.stderr).toBeLessThanOrEqual(1);
  });

  it('an arm with another version of a package is built from a copy of the app with it installed, said before the run, and does the same work', () => {
    expect(arms.r.stderr).toMatch(/an arm with isbot 5\.1\.30 builds from \S+\/versions\/\w+-app-\w+ \(installed by npm; the app's own folder untouched\)/);
    // On both sides: the copy's Node.js edition on node, its Cloudflare plugin's Worker on workerd.
    for (const id of ['node isbot@5.1.30', 'workerd isbot@5.1.30']) {
      const pinned = arms.record!.variants.find((v) => v.id === id)!;
      expect(pinned.packages?.map((p) => [p.name, p.version, p.integrity?.startsWith('sha512-')]), id).toEqual([['isbot', '5.1.30', true]]);
      const served = arms.record!.results.find((x) => x.variantId === id)!;
      expect(requestsOf(served.rounds[0]!)!.answers!.map((a) => a.status), id).toEqual([200]);
    }
    expect(arms.record!.variants.find((v) => v.id === 'node')!.packages).toBeUndefined();
    // Installed in the library store's folder, which the machine's test cache holds: a fresh clone installs none of it again.
    expect(arms.record!.variants.find((v) => v.id === 'node isbot@5.1.30')!.packages![0]!.dir.startsWith(join(realpathSync(appRunEnv().RTBENCH_LIBRARY_CACHE), 'app-versions'))).toBe(true);
    expect(arms.record!.digestMismatches ?? []).toEqual([]);
    // The app's own folder keeps its own isbot.
    expect((JSON.parse(readFileSync(join(app(), 'node_modules', 'isbot', 'package.json'), 'utf8')) as { version: string }).version).toBe('5.2.3');
  });

  it('builds afresh where no build is kept: the build path end to end on every test run', async () => {
    // The runs above may reuse the machine's builds; this one's folder is new, so its Node.js edition is built now and served.
    const fresh = await runApp([app(), '--runtime', 'node', '--rounds', '1', '--request', 'GET /'], { fresh: true });
    expect(fresh.r.stderr.match(/building the app with react-router build .* into \S*rtbench-app-builds-/g), fresh.r.stderr).toHaveLength(1);
    expectSamePageServed(fresh.record!, ['node']);
  });
});
