/**
 * How long an install on demand of each pinned runtime takes, and its size
 * on disk (docs/runtimes.md, "What it costs"):
 *
 *   flock /tmp/rtbench-measure.lock npx tsx scripts/measure/runtimes/runtime-installs.ts
 *
 * Each package is installed with the installer rtbench uses (the same npm
 * command) into an empty directory: first with an empty npm cache of its own,
 * then again with that cache filled. Downloads from the npm registry
 * (about 330 MB); everything is removed afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { npmInstaller } from '../../../packages/host/src/installs.ts';
import { runtimePlugins } from '@rtbench/runtime-registry';

const work = mkdtempSync(join(tmpdir(), 'rtbench-runtime-installs-'));
process.env.npm_config_cache = join(work, 'npm-cache');
const megabytes = (dir: string) => Number(execFileSync('du', ['-sm', dir], { encoding: 'utf8' }).split('\t')[0]);

try {
  process.stdout.write('| package | on disk | empty npm cache | npm cache filled |\n|---|---|---|---|\n');
  for (const rt of runtimePlugins().flatMap((r) => r.npmRuntimes)) {
    const seconds: string[] = [];
    let size = 0;
    for (const pass of ['cold', 'warm']) {
      const dir = mkdtempSync(join(work, `${pass}-`));
      const start = performance.now();
      await npmInstaller.install(rt.package, rt.version, dir);
      seconds.push(`${((performance.now() - start) / 1000).toFixed(1)} s`);
      size = megabytes(dir);
    }
    process.stdout.write(`| ${rt.package}@${rt.version} | ${size} MB | ${seconds.join(' | ')} |\n`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
