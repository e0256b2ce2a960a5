/**
 * One ESM file per (suite, runtime): the suite, the shared harness and that
 * runtime's entry, bundled by esbuild. The same suite source runs everywhere;
 * only the entry differs. Files are named by content hash, so a rerun of an
 * unchanged suite reuses its bundle and a results file can name what ran.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { BundleTarget } from '@rtbench/runner-kit';
import { cacheDir, repoRoot } from './paths.ts';

export interface Bundle {
  path: string;
  hash: string;
}

export async function bundleSuite(suiteEntry: string, suiteName: string, runtime: string, target: BundleTarget): Promise<Bundle> {
  const result = await build({
    stdin: {
      contents: [
        // The entry first: its top level (taking the job out of argv, keeping
        // its own clock and writer) runs before any of the suite's code.
        `import { start } from ${JSON.stringify(target.entry)};`,
        `import suite from ${JSON.stringify(suiteEntry)};`,
        `await start(suite);`,
      ].join('\n'),
      resolveDir: repoRoot,
      sourcefile: `rtbench-${runtime}-entry.ts`,
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'esm',
    platform: target.platform,
    conditions: target.conditions,
    ...(target.mainFields ? { mainFields: target.mainFields } : {}),
    target: 'esnext',
    // node: builtins are provided by every runtime (workerd via nodejs_compat).
    external: ['node:*'],
    // Keep names: error stacks and digest summaries should read like the source.
    keepNames: false,
    minify: false,
    sourcemap: 'inline',
    logLevel: 'silent',
    legalComments: 'none',
  });
  const code = result.outputFiles[0]!.contents;
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
  const dir = join(cacheDir, 'bundles', suiteName);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${runtime}-${hash}.mjs`);
  // Write then rename: a concurrent run must never execute a half-written bundle.
  if (!existsSync(path)) {
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, code);
    renameSync(tmp, path);
  }
  return { path, hash };
}
