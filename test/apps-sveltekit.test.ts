/**
 * A SvelteKit app brought as its folder (`rtbench run <app folder>`): the
 * tiny app in test/fixtures/apps/sveltekit, its dependencies installed from
 * its lockfile (scripts/app-fixture.ts, once per lockfile on the machine),
 * built with its own vite once per adapter (adapter-cloudflare, which it
 * declares; adapter-node, which rtbench adds and says so) and served by
 * adapter-node's handler on node and by the Cloudflare Worker with its
 * client files on workerd: the same page on both, proven with the builds'
 * names masked, and a page only the Workers edition renders a section of
 * reads ≠ work naming its line. An arm pinning a kit its adapter does not
 * support is refused; a build that fails is one line quoting its error,
 * exit 2, nothing run. An arm with another version of a package the app
 * declares (a copy of the app installed and built, on both sides) is
 * test/apps-react-router.test.ts's: the copy is the app suite's whichever
 * framework, and that app builds in half the time. Small: one round of a
 * smoke run (a few requests a server, figures not read).
 */
import { cpSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { installedApp } from '../scripts/app-fixture.ts';
import { appRunEnv, expectSamePageServed, runApp } from './helpers/app-run.ts';
import { runCliAsync } from './helpers/cli.ts';

describe('a SvelteKit app, built with its own toolchain', () => {
  let app: string;
  let first: Awaited<ReturnType<typeof runApp>>;
  beforeAll(async () => {
    app = installedApp('sveltekit');
    first = await runApp([app, '--runtime', 'node,workerd', '--rounds', '1', '--request', 'GET /', '--request', 'GET /planted']);
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

  it("an arm pinning a kit the app's adapter does not support is one line, exit 2, before npm is asked or anything is installed or run", async () => {
    const refused = await runCliAsync(['run', app, '--compare', 'node', 'node @sveltejs/kit@1.30.4', '--request', 'GET /', '--no-color'], appRunEnv());
    expect(refused.status, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(/^error: node @sveltejs\/kit@1\.30\.4: the app's @sveltejs\/adapter-cloudflare 7\.2\.9 supports @sveltejs\/kit \^2\.\d+\.\d+, not 1\.30\.4/m);
    expect(refused.stderr).not.toContain('installing @sveltejs/kit');
    // Nor is npm asked whether the release exists: the adapter's peer range refuses it first.
    expect(refused.stderr).not.toContain('asking the npm registry');
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
