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
 * app suite's whichever framework). Served as any request case is: two requests in flight to each
 * server (--concurrency) and a CPU limit per request (--cpu-limit). One run
 * serves every assertion; small: one round of a smoke run (APP_RUN: a few
 * requests a server, figures not read).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { requestsOf } from '../packages/measurer-records/src/index.ts';
import { expectSamePageServed, runFixtureApp } from './helpers/app-run.ts';
import type { CliResult } from './helpers/cli.ts';

describe('a React Router app, built with its own toolchain', () => {
  let r: CliResult;
  let record: RunRecord;
  beforeAll(async () => {
    ({ r, record } = await runFixtureApp('react-router', 'node,workerd', ['GET /'], ['--concurrency', '2', '--cpu-limit', '5ms']));
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
});
