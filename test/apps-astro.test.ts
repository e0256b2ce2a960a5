/**
 * An Astro app (server output) brought as its folder (`rtbench run <app
 * folder>`): the tiny app in test/fixtures/apps/astro, deployed as Astro's
 * Cloudflare guide has it (@astrojs/cloudflare in its config, a Preact
 * island on its page), its dependencies installed from its lockfile
 * (scripts/app-fixture.ts). Built with its own `astro build` once per
 * adapter (@astrojs/node added by rtbench in standalone mode, said) and
 * served by the Node.js side's handler on node, bun and deno and by the
 * adapter's Worker with its client files on workerd: the same page on all
 * four, proven with the builds' names masked, its style (prefixed for
 * one CSS target) too. That a section only one
 * edition renders still differs once Astro's names are masked is
 * packages/suite-loader/test/app-astro.test.ts's, on the pages these
 * editions served; that such a page reads ≠ work naming its line is
 * test/apps-sveltekit.test.ts's run (the comparison is the app suite's,
 * whichever framework). One run serves every assertion; small: one round
 * of a smoke run (APP_RUN: a few requests a server, figures not read).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { expectSamePageServed, runFixtureApp } from './helpers/app-run.ts';
import type { CliResult } from './helpers/cli.ts';

describe('an Astro app, built with its own toolchain', () => {
  let r: CliResult;
  let record: RunRecord;
  beforeAll(async () => {
    ({ r, record } = await runFixtureApp('astro', 'node,bun,deno,workerd', ['GET /'], ['--explain']));
    // The first run installs the app (npm ci) and builds it twice: more than a hook's default time on a loaded machine.
  }, 600_000);

  it('is recognised and said first: how each side is built and served, and the adapter rtbench adds', () => {
    expect(r.stderr).toMatch(/note: .* is an Astro app \(astro \d+\.\d+\.\d+, astro\.config\.mjs, wrangler\.jsonc\): built with astro build, once per adapter, served by @astrojs\/node's standalone server/);
    expect(r.stderr).toMatch(/note: the app declares no @astrojs\/node: rtbench adds @astrojs\/node \d+\.\d+\.\d+ from its cache for the Node\.js side, in standalone mode/);
    expect(r.stderr).toMatch(/note: the Workers side is the Worker the app's @astrojs\/cloudflare \d+\.\d+\.\d+ builds, served with the wrangler config it writes/);
    expect(r.stderr).toMatch(/left out of the served Worker: what @astrojs\/cloudflare adds to its wrangler config of its own \(kv_namespaces, images/);
    expect(r.stderr).toContain("note: the Workers runtime serves it with wrangler.jsonc's compatibility date 2025-09-01");
  });

  it("serves the page on four runtimes: the same work, the builds' names masked, the style built for one CSS target", () => {
    expect(r.stderr).toContain("note: both sides' server-rendered styles are built for one CSS target, es2024");
    expectSamePageServed(record, ['bun', 'deno', 'node', 'workerd']);
    expect(record.digestMismatches ?? []).toEqual([]);
  });

  it("says no thread clock for deno, whose counts whole 10 ms ticks (it read 0.000× the host's)", () => {
    expect(r.stdout).not.toMatch(/deno · GET .*thread clock read/);
  });
});
