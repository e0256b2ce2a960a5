/**
 * A SvelteKit app brought as its folder (`rtbench run <app folder>`): the
 * tiny app in test/fixtures/apps/sveltekit, its dependencies installed from
 * its lockfile (scripts/app-fixture.ts, once per lockfile on the machine),
 * built with its own vite once per adapter (adapter-cloudflare, which it
 * declares; adapter-node, which rtbench adds and says so) and served by
 * adapter-node's handler on node and by the Cloudflare Worker with its
 * client files on workerd: the same page on both, proven with the builds'
 * names masked, and a page only the Workers edition renders a section of
 * reads ≠ work naming its line. A second run reuses the app's build; in it
 * an arm pinning another svelte builds a copy of the app with it installed
 * and proves the same page on node and on workerd; a version its adapter
 * does not support is refused. A build that fails is one line quoting its
 * error, exit 2, nothing run. Small: one round of a smoke run (APP_RUN: a
 * few requests a server, figures not read).
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { requestsOf } from '../packages/measurer-records/src/index.ts';
import { installedApp } from '../scripts/app-fixture.ts';
import { APP_RUN, appRunEnv, expectSamePageServed } from './helpers/app-run.ts';
import { runCliAsync, tempFile, type CliResult } from './helpers/cli.ts';

async function run(args: string[]): Promise<{ r: CliResult; record?: RunRecord }> {
  const out = tempFile('run.json');
  const r = await runCliAsync(['run', ...args, '--save', out, ...APP_RUN], appRunEnv());
  return { r, ...(existsSync(out) ? { record: parseRun(JSON.parse(readFileSync(out, 'utf8')), out) } : {}) };
}

describe('a SvelteKit app, built with its own toolchain', () => {
  let app: string;
  let first: Awaited<ReturnType<typeof run>>;
  beforeAll(async () => {
    app = installedApp('sveltekit');
    first = await run([app, '--runtime', 'node,workerd', '--rounds', '1', '--request', 'GET /', '--request', 'GET /planted']);
    // The first run installs the app (npm ci) and builds it twice: more than a hook's default time on a loaded machine.
  }, 600_000);

  it('is built once per adapter, rtbench adding the adapter it does not declare, and said first', () => {
    expect(first.r.stderr).toMatch(/note: .* is a SvelteKit app \(@sveltejs\/kit \d+\.\d+\.\d+, svelte\.config\.js, wrangler\.jsonc\): built with vite build, once per adapter/);
    expect(first.r.stderr).toContain('note: the app declares no @sveltejs/adapter-node: rtbench adds @sveltejs/adapter-node');
    expect(first.r.stderr).toContain("note: the Workers runtime serves it with wrangler.jsonc's compatibility date 2025-09-01 and flags nodejs_compat");
  });

  it("serves the page on node (adapter-node) and workerd (adapter-cloudflare's Worker): the same work, the builds' names masked", () => {
    expectSamePageServed(first.record!, ['node', 'workerd']);
  });

  it('a section only the Workers edition renders reads ≠ work, naming its line', () => {
    const planted = first.record!.digestMismatches!.find((m) => m.caseId.includes('planted'));
    expect(planted, first.r.stdout).toBeDefined();
    // The line named is the aside's, the first where the masked pages part.
    expect(first.r.stdout).toMatch(/different work on "GET \/planted \[cpu=js thread\]": GET \/planted → 200 text\/html, line \d+:\s+node\s+"[^"]*<!--\[-1--><!--\]-->[^"]*"[^"]*workerd\s+"[^"]*<aside>rendered on the/);
  });

  // The second run: the app as it is on node, and an arm with another svelte on both sides.
  let arms: Awaited<ReturnType<typeof run>>;

  it('a second run reuses the build and says so by building nothing', async () => {
    arms = await run([app, '--compare', 'node', 'node svelte@5.57.2', 'workerd svelte@5.57.2', '--rounds', '1', '--request', 'GET /']);
    expect(arms.r.status, arms.r.stderr).toBe(0);
    // Its arm of the app as it is (prepared first) builds nothing: a build said comes after the pinned copy's line, and is the copy's.
    // The copy's build is cached in the checkout too, so a second test run in the same checkout says none at all.
    const copyLine = arms.r.stderr.indexOf('an arm with svelte 5.57.2 builds from');
    expect(copyLine, arms.r.stderr).toBeGreaterThan(0);
    expect(arms.r.stderr.slice(0, copyLine), arms.r.stderr).not.toContain('building the app');
    expect(arms.r.stderr.slice(copyLine).match(/building the app/g)?.length ?? 0, arms.r.stderr).toBeLessThanOrEqual(1);
  });

  it("an arm with another svelte is built from a copy of the app with it installed, said before the run, and does the same work", async () => {
    expect(arms.r.stderr).toMatch(/an arm with svelte 5\.57\.2 builds from \S+\/versions\/\w+-app-\w+ \(installed by npm; the app's own folder untouched\)/);
    // On both sides: the copy's Node.js edition on node, its Cloudflare adapter's Worker on workerd.
    for (const id of ['node svelte@5.57.2', 'workerd svelte@5.57.2']) {
      const pinned = arms.record!.variants.find((v) => v.id === id)!;
      expect(pinned.packages?.map((p) => [p.name, p.version, p.integrity?.startsWith('sha512-')]), id).toEqual([['svelte', '5.57.2', true]]);
      const served = arms.record!.results.find((x) => x.variantId === id)!;
      expect(requestsOf(served.rounds[0]!)!.answers!.map((a) => a.status), id).toEqual([200]);
    }
    expect(arms.record!.variants.find((v) => v.id === 'node')!.packages).toBeUndefined();
    expect(arms.record!.digestMismatches ?? []).toEqual([]);
    // The app's own folder keeps its own svelte.
    expect((JSON.parse(readFileSync(join(app, 'node_modules', 'svelte', 'package.json'), 'utf8')) as { version: string }).version).toBe('5.57.3');
    // A version the app's adapter does not support is one line, exit 2, before anything is installed or run.
    const refused = await runCliAsync(['run', app, '--compare', 'node', 'node @sveltejs/kit@1.30.4', '--request', 'GET /', '--no-color'], appRunEnv());
    expect(refused.status, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(/^error: node @sveltejs\/kit@1\.30\.4: the app's @sveltejs\/adapter-cloudflare 7\.2\.9 supports @sveltejs\/kit \^2\.\d+\.\d+, not 1\.30\.4/m);
    expect(refused.stderr).not.toContain('installing @sveltejs/kit');
  });

  it("a build that fails is one line quoting the build's own error, exit 2, nothing run", async () => {
    // The installed app with a page that does not compile, its packages the installed app's.
    const broken = mkdtempSync(join(tmpdir(), 'rtbench-broken-app-'));
    cpSync(app, broken, { recursive: true, filter: (path) => !path.includes('node_modules') });
    symlinkSync(join(app, 'node_modules'), join(broken, 'node_modules'), 'dir');
    writeFileSync(join(broken, 'src', 'routes', '+page.svelte'), '<script>\n  let { data } = $props();\n</script>\n\n{#each data.items as item}\n  <p>{item.name</p>\n');
    const r = await runCliAsync(['run', broken, '--runtime', 'node', '--rounds', '1', '--no-color'], appRunEnv());
    expect(r.status, r.stderr).toBe(2);
    const error = r.stderr.split('\n').filter((l) => l.startsWith('error: '));
    expect(error).toHaveLength(1);
    expect(error[0]).toMatch(/vite build \(the Node\.js adapter\) failed \(exit 1\): .*(Expected|Unexpected|\+page\.svelte).* \(its output: .*\.log\)$/);
    expect(r.stdout).not.toContain('CPU per request');
  });
});
