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
 * Installed from its package (no checkout around it), the CLI runs from the
 * bundle packed with it (scripts/pack-rtbench.ts), its user modules bundled under
 * rtbench's cache. Where there is no bundle to run, the CLI runs from its
 * sources through tsx, as it does with RTBENCH_FROM_SOURCE=1.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot, sourcesKey } from './cli-key.mjs';
import { installedPackages, PACKED, provideModulePlaces } from './packed-places.mjs';

const CACHE = join(repoRoot, 'packages', 'cli', 'node_modules', '.cache', 'rtbench');

/** @param {unknown} error why the CLI runs from its sources, said when RTBENCH_DEBUG_BUNDLE is set */
function fromSource(error) {
  if (process.env.RTBENCH_DEBUG_BUNDLE) process.stderr.write(`rtbench: running from source: ${/** @type {Error} */ (error).message}\n`);
  return undefined;
}

/** @returns {Promise<string | undefined>} the checkout's bundle's directory, built if missing; undefined when it cannot be */
async function checkoutBundle() {
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
    return fromSource(error);
  }
}

/**
 * @param {string} dir the bundle's folder
 * @param {string} userModules where the user's modules are bundled
 */
async function startBundle(dir, userModules) {
  // Node 22.1+ keeps each module's compiled code (V8's code cache, checked against the source) for the next start; Node 20 has no such cache.
  /** @type {{ enableCompileCache?: (dir: string) => unknown }} */ (nodeModule).enableCompileCache?.(join(userModules, 'compile-cache'));
  /** @type {import('../../host/src/cli-bundle.ts').BundleEntries} */
  const entries = JSON.parse(readFileSync(join(dir, 'entries.json'), 'utf8'));
  const [{ provideUserModuleLoader }, { mapStacksUnder }] = await Promise.all([import('./user-modules.mjs'), import('./stack-sources.mjs')]);
  const packages = Object.fromEntries(Object.entries(entries.packages).map(([specifier, file]) => [specifier, pathToFileURL(join(dir, file)).href]));
  provideUserModuleLoader(packages, userModules);
  // Stack traces name the sources (a checkout's bundle is built with source maps), each map read when a stack needs it.
  mapStacksUnder(dir);
  await import(pathToFileURL(join(dir, entries.cli)).href);
}

/** @returns {string | undefined} the bundle packed with this installed rtbench, its modules' places given; undefined when there is none */
function packedBundle() {
  try {
    if (!existsSync(join(PACKED, 'entries.json'))) throw new Error(`no bundle was packed with it (${PACKED})`);
    provideModulePlaces(installedPackages(join(PACKED, '..')));
    return PACKED;
  } catch (error) {
    return fromSource(error);
  }
}

// An installed rtbench has no workspace around it (its packages are spread over node_modules): it runs from the bundle packed with it.
// Installed by npm in a project that is a pnpm workspace of its own, three folders up is that project: its sources name it apart.
const inCheckout = existsSync(join(repoRoot, 'pnpm-workspace.yaml')) && existsSync(join(repoRoot, 'packages', 'host', 'src', 'cli-bundle.ts'));
const dir = process.env.RTBENCH_FROM_SOURCE === '1' ? undefined : inCheckout ? await checkoutBundle() : packedBundle();
// Outside a checkout, the user's modules are bundled under rtbench's cache (@rtbench/suite-loader's places.ts):
// the installed package's folder may not be the user's to write in.
if (dir) await startBundle(dir, inCheckout ? dir : join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'rtbench', 'cli'));
else {
  const { registerTypeScript } = await import('./user-modules.mjs');
  await registerTypeScript();
  await import('../src/bin.ts');
}
