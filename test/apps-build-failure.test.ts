/**
 * An app whose build fails for one edition only costs that edition's arms:
 * the React Router fixture app (test/fixtures/apps/react-router, installed
 * from its lockfile) copied with a vite config whose plugin throws when the
 * Workers edition is built. rtbench's Node.js edition leaves out every
 * plugin named as the Cloudflare Vite plugin's (vite-plugin-cloudflare…), so
 * it builds, and node is measured, shown and saved beside workerd's failure
 * in one line; the run exits 1 (it ran in part). That a run whose every
 * arm's build failed is refused in one line (exit 2), as a comparison
 * missing an arm is, is packages/cli/test/plan-resolved.test.ts's, pure;
 * that the build goes on past a failed edition, packages/host/test/app-build.test.ts's.
 * The Node.js edition is kept per machine (test/helpers/app-run.ts);
 * the failing edition fails at its config hook, before vite builds anything.
 * Smoke runs: figures are not read.
 */
import { cpSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { installedApp } from '../scripts/app-fixture.ts';
import { runApp } from './helpers/app-run.ts';
import { runCliAsync, type CliResult } from './helpers/cli.ts';

const CAUSE = 'this app has no Workers edition';

/** The fixture's config with a plugin named as the Cloudflare Vite plugin's, first: it fails the Workers edition only, at its config hook. */
const FAILING_CONFIG = `import { cloudflare } from '@cloudflare/vite-plugin';
import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';

const failsOnWorkers = { name: 'vite-plugin-cloudflare-stand-in', config() { throw new Error(${JSON.stringify(CAUSE)}); } };

export default defineConfig({ plugins: [failsOnWorkers, cloudflare({ viteEnvironment: { name: 'ssr' } }), reactRouter()] });
`;

/** The installed fixture app's files in a folder of their own, its packages linked, its vite config the failing one. */
function appFailingOnWorkers(): string {
  const installed = installedApp('react-router');
  const dir = mkdtempSync(join(tmpdir(), 'rtbench-app-build-fails-'));
  for (const name of readdirSync(installed)) if (name !== 'node_modules') cpSync(join(installed, name), join(dir, name), { recursive: true });
  symlinkSync(join(installed, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(join(dir, 'vite.config.js'), FAILING_CONFIG);
  return dir;
}

const SMOKE = ['--rounds', '1', '--time', '5ms', '--warmup', '1ms', '--request', 'GET /'];
/** The line a workerd arm fails with: the side, the build step and its last error. */
const FAILED_LINE = new RegExp(`the Workers side was not built: react-router build \\(the Cloudflare Vite plugin\\) failed \\(exit 1\\): .*${CAUSE}`);
const oneLine = (text: string): string => text.replace(/\n\s+/g, ' ');

describe('an app whose build fails for one edition', () => {
  let app: string;
  let r: CliResult;
  let saved: string;
  let record: RunRecord | undefined;
  beforeAll(async () => {
    app = appFailingOnWorkers();
    ({ r, saved, record } = await runApp([app, '--runtime', 'node,workerd', ...SMOKE]));
    // The first run on a machine builds the Node.js edition: more than a hook's default time on a loaded machine.
  }, 300_000);

  it('fails only the arm serving that edition, in a line naming the arm, the side and the cause, and exits 1', () => {
    expect(r.status, r.stderr).toBe(1);
    expect(oneLine(r.stdout)).toMatch(new RegExp(`✗ workerd did not run: ${FAILED_LINE.source}`));
    expect(r.stderr).toMatch(/× 1 round/);
    expect(r.stderr).toContain('workerd (unavailable)');
  });

  it("measures, shows and saves the other arm's figures", () => {
    expect(record, r.stderr).toBeDefined();
    const node = record!.results.filter((x) => x.variantId === 'node');
    expect(node.length).toBeGreaterThan(0);
    for (const result of node) expect([result.status, result.rounds.length], result.caseId).toEqual(['ok', 1]);
    expect(r.stdout).toMatch(/^ {2}node\s+\d/m);
  });

  it('records why the failed arm has no figures: the arm unavailable, each of its cells failed with the line', () => {
    expect(record!.variants.find((v) => v.id === 'workerd')!.unavailable).toMatch(FAILED_LINE);
    expect(record!.variants.find((v) => v.id === 'node')!.unavailable).toBeUndefined();
    const workerd = record!.results.filter((x) => x.variantId === 'workerd');
    expect(workerd.length).toBeGreaterThan(0);
    for (const result of workerd) {
      expect([result.status, result.rounds.length], result.caseId).toEqual(['failed', 0]);
      expect(result.failures.map((f) => f.kind)).toEqual(['error']);
      expect(result.failures[0]!.message).toMatch(FAILED_LINE);
    }
  });

  it('report on the saved run shows the failed arm and why, beside the other\'s figures', async () => {
    const shown = await runCliAsync(['report', saved, '--no-color']);
    expect(shown.status, shown.stderr).toBe(0);
    expect(oneLine(shown.stdout)).toMatch(new RegExp(`✗ workerd did not run: ${FAILED_LINE.source}`));
    expect(shown.stdout).toMatch(/^ {2}node\s+\d/m);
  });
});
