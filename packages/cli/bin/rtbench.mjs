#!/usr/bin/env node
// @ts-check
/**
 * The `rtbench` command (and `pnpm bench`, `pnpm rtbench`). rtbench's
 * packages are TypeScript sources; the CLI runs from a bundle of them
 * (@rtbench/host's cli-bundle.ts) kept under node_modules/.cache and rebuilt
 * whenever a source changes (cli-key.mjs), so a start loads a few
 * JavaScript files instead of compiling ~290 modules through a loader. The
 * first start after a change builds it (about a second).
 *
 * What the user writes (suites, claims, runtime plug-ins) is TypeScript,
 * bundled by esbuild as it is loaded, with `@rtbench/…` bound to the
 * bundle's own modules (user-modules.mjs), so there is one copy of each
 * module and of its state.
 *
 * Outside a checkout (rtbench installed from npm), or where the bundle cannot
 * be built, the CLI runs from its sources through tsx, as it does with
 * RTBENCH_FROM_SOURCE=1.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot, sourcesKey } from './cli-key.mjs';

const CACHE = join(repoRoot, 'packages', 'cli', 'node_modules', '.cache', 'rtbench');

/** @returns {Promise<string | undefined>} the bundle's directory, built if missing; undefined when it cannot be */
async function bundleDir() {
  if (process.env.RTBENCH_FROM_SOURCE === '1') return undefined;
  // An installed rtbench has no workspace around it (its packages are spread over node_modules): it runs from its sources.
  if (!existsSync(join(repoRoot, 'pnpm-workspace.yaml'))) return undefined;
  try {
    const dir = join(CACHE, `cli-${sourcesKey()}`);
    if (existsSync(join(dir, 'entries.json'))) return dir;
    mkdirSync(CACHE, { recursive: true });
    const { tsImport } = await import('tsx/esm/api');
    /** @type {typeof import('../../host/src/cli-bundle.ts')} */
    const builder = await tsImport('../../host/src/cli-bundle.ts', import.meta.url);
    await builder.buildCliBundle(dir);
    return dir;
  } catch (error) {
    if (process.env.RTBENCH_DEBUG_BUNDLE) process.stderr.write(`rtbench: running from source: ${/** @type {Error} */ (error).message}\n`);
    return undefined;
  }
}

const dir = await bundleDir();
if (dir) {
  /** @type {import('../../host/src/cli-bundle.ts').BundleEntries} */
  const entries = JSON.parse(readFileSync(join(dir, 'entries.json'), 'utf8'));
  const [{ provideUserModuleLoader }, { mapStacksUnder }] = await Promise.all([import('./user-modules.mjs'), import('./stack-sources.mjs')]);
  provideUserModuleLoader(Object.fromEntries(Object.entries(entries.packages).map(([specifier, file]) => [specifier, pathToFileURL(join(dir, file)).href])), dir);
  // Stack traces name the sources (the bundle is built with source maps), each map read when a stack needs it.
  mapStacksUnder(dir);
  await import(pathToFileURL(join(dir, entries.cli)).href);
} else {
  const { registerTypeScript } = await import('./user-modules.mjs');
  await registerTypeScript();
  await import('../src/bin.ts');
}
