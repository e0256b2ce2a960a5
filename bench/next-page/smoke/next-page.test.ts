/**
 * The suite's own test job (`npx vitest run --config bench/next-page/vitest.config.ts`),
 * kept out of `pnpm test`: its first run builds the Next.js app (minutes of
 * CPU on a fresh machine); later runs reuse the cached build. One round on
 * node, deno and workerd: Next.js's own server (on deno with the permissions
 * the suite declares) and OpenNext's Worker answer, with the same page
 * proven; a build that fails is one line and exit 2. Then the same app as
 * a user's folder (`rtbench run <app folder>`, its node_modules the suite's
 * toolchain), a section planted that only the Workers runtime renders: built
 * once, served by Next.js's server on node and OpenNext's Worker on
 * workerd, and the section read as different work on its line.
 */
import { cpSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRun } from '@rtbench/core/schema';
import { runCliAsync, tempFile } from '../../../test/helpers/cli.ts';
import { APP_DIR } from '../build.ts';
import { installToolchain, TOOLCHAIN } from '../toolchain.ts';

describe('next-page', () => {
  it('serves the page on node and deno (Next.js) and workerd (OpenNext), the same work on all three', async () => {
    const out = tempFile('next-page.json');
    const r = await runCliAsync(['bench', 'next-page', '--runtime', 'node@26,deno,workerd', '--rounds', '1', '--filter', 'js thread', '--save', out, '--quiet']);
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    const run = parseRun(JSON.parse(readFileSync(out, 'utf8')), out);
    expect(run.status).toBe('complete');
    const results = run.results.filter((x) => x.caseId.includes('js thread'));
    expect(results.map((x) => [x.variantId, x.status]).sort()).toEqual([['deno', 'ok'], ['node@26', 'ok'], ['workerd', 'ok']]);
    for (const x of results) expect(x.rounds[0]!.samples.length, x.variantId).toBe(60);
    expect(new Set(results.map((x) => x.rounds[0]!.digest.hash)).size).toBe(1);
  });

  it('a build that fails: one line, exit 2, nothing run', async () => {
    const app = mkdtempSync(join(tmpdir(), 'next-page-broken-'));
    cpSync(APP_DIR, app, { recursive: true });
    writeFileSync(join(app, 'app', 'page.tsx'), 'export default function Page() { return <main>{</main>; }\n');
    const r = await runCliAsync(['bench', 'next-page', '--runtime', 'node@26', '--rounds', '1'], { RTBENCH_NEXT_PAGE_APP: app });
    expect(r.status).toBe(2);
    const errors = r.stderr.split('\n').filter((l) => l.startsWith('error:'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/next build failed \(exit \d+\)/);
    expect(r.stdout).not.toMatch(/median/);
  });

  it("an app folder: built with its own next and adapter, served on node and workerd, a section only workerd renders is different work", async () => {
    const app = mkdtempSync(join(tmpdir(), 'next-app-planted-'));
    cpSync(APP_DIR, app, { recursive: true });
    const versions = Object.fromEntries(['next', 'react', 'react-dom', '@opennextjs/cloudflare', 'wrangler'].map((name) => [name, TOOLCHAIN[name as keyof typeof TOOLCHAIN]]));
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'next-app-planted', private: true, dependencies: versions }));
    symlinkSync((await installToolchain()).modules, join(app, 'node_modules'), 'dir');
    const page = join(app, 'app', 'page.tsx');
    const planted = "{(globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === 'Cloudflare-Workers' ? <aside>rendered on the Workers runtime only</aside> : null}";
    writeFileSync(page, readFileSync(page, 'utf8').replace('<ul className="products">', `${planted}\n      <ul className="products">`));
    const r = await runCliAsync(['run', app, '--request', 'GET /', '--runtime', 'node@26,workerd', '--rounds', '1', '--filter', 'js thread', '--no-color']);
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(1);
    expect(r.stderr).toMatch(/is a Next\.js app \(next \S+, next\.config\.mjs, wrangler\.jsonc\)/);
    expect(r.stderr).toMatch(/the Workers side is built with the app's own @opennextjs\/cloudflare/);
    const said = `${r.stdout}\n${r.stderr}`.replace(/\s+/g, ' ');
    expect(said).toMatch(/different work on "GET \/ \[cpu=js thread\]"/);
    // The line that differs, each runtime's page quoted there: only workerd's holds the section.
    expect(said).toMatch(/, line \d+: node@26 "(?:(?!<aside>).)*" \([\d,]+ B\); workerd ".*<aside>rendered on the Workers runtime/);
  });
});
