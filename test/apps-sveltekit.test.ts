/**
 * A SvelteKit app brought as its folder (`rtbench run <app folder>`): the
 * tiny app in test/fixtures/apps/sveltekit, its dependencies installed from
 * its lockfile (scripts/app-fixture.ts, once per lockfile into rtbench's cache), built
 * with its own vite once per adapter (adapter-cloudflare, which it
 * declares; adapter-node, which rtbench adds and says so) and served by
 * adapter-node's handler on node and by the Cloudflare Worker with its
 * client files on workerd: the same page on both, proven with the builds'
 * names masked, and a page only the Workers edition renders a section of
 * reads ≠ work naming its line. A second run reuses the build. Small: one
 * round, a few requests a process.
 */
import { existsSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { installedApp } from '../scripts/app-fixture.ts';
import { runCliAsync, tempFile, type CliResult } from './helpers/cli.ts';

async function run(args: string[]): Promise<{ r: CliResult; record?: RunRecord }> {
  const out = tempFile('run.json');
  const r = await runCliAsync(['run', ...args, '--save', out, '--no-color', '--filter', 'cpu=js thread']);
  return { r, ...(existsSync(out) ? { record: parseRun(JSON.parse(readFileSync(out, 'utf8')), out) } : {}) };
}

describe('a SvelteKit app, built with its own toolchain', () => {
  let app: string;
  let first: Awaited<ReturnType<typeof run>>;
  beforeAll(async () => {
    app = installedApp('sveltekit');
    first = await run([app, '--runtime', 'node,workerd', '--rounds', '1', '--request', 'GET /', '--request', 'GET /planted']);
  });

  it('is built once per adapter, rtbench adding the adapter it does not declare, and said first', () => {
    expect(first.r.stderr).toMatch(/note: .* is a SvelteKit app \(@sveltejs\/kit \d+\.\d+\.\d+, svelte\.config\.js, wrangler\.jsonc\): built with vite build, once per adapter/);
    expect(first.r.stderr).toContain('note: the app declares no @sveltejs/adapter-node: rtbench adds @sveltejs/adapter-node');
    expect(first.r.stderr).toContain("note: the Workers runtime serves it with wrangler.jsonc's compatibility date 2025-09-01 and flags nodejs_compat");
  });

  it("serves the page on node (adapter-node) and workerd (adapter-cloudflare's Worker): the same work, the builds' names masked", () => {
    const page = first.record!.results.filter((x) => x.caseId.startsWith('GET /') && !x.caseId.includes('planted'));
    expect(page.map((x) => x.variantId).sort()).toEqual(['node', 'workerd']);
    for (const result of page) {
      expect(result.rounds.length, result.variantId).toBe(1);
      expect(result.rounds[0]!.requests!.answers!.map((a) => a.status), result.variantId).toEqual([200]);
    }
    expect(first.record!.digestMismatches?.map((m) => m.caseId)).not.toContain(page[0]!.caseId);
  });

  it('a section only the Workers edition renders reads ≠ work, naming its line', () => {
    const planted = first.record!.digestMismatches!.find((m) => m.caseId.includes('planted'));
    expect(planted, first.r.stdout).toBeDefined();
    expect(first.r.stdout + first.r.stderr).toContain('rendered on the Workers edition only');
  });

  it('a second run reuses the build and says so by building nothing', async () => {
    const again = await run([app, '--runtime', 'node', '--rounds', '1', '--request', 'GET /']);
    expect(again.r.status, again.r.stderr).toBe(0);
    expect(again.r.stderr).not.toContain('building the app');
  });
});
