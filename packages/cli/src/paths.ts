/**
 * Where rtbench keeps things. In its own checkout (a pnpm workspace): the
 * cache in .rtbench-cache/, runs in results/, suites in bench/, all beside
 * the code. Installed in another repository (`npm i -D rtbench`): suites in
 * ./bench and runs in ./results of the directory it is run in, the cache
 * (bundles) under $XDG_CACHE_HOME/rtbench (~/.cache/rtbench).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The rtbench checkout, or the installed package's grandparent (packages/cli/src -> ../../..). */
export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** Running from rtbench's own checkout, not from an installed package. */
export const inCheckout = existsSync(join(repoRoot, 'pnpm-workspace.yaml')) && existsSync(join(repoRoot, 'packages', 'cli', 'src', 'paths.ts'));
const projectDir = inCheckout ? repoRoot : process.cwd();
export const cacheDir = inCheckout ? join(repoRoot, '.rtbench-cache') : join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'rtbench');
export const resultsDir = join(projectDir, 'results');
export const suitesDir = join(projectDir, 'bench');

const require = createRequire(import.meta.url);
/** A module of one of rtbench's packages, as this CLI resolves it (the same copy the harness uses). */
export const rtbenchModule = (specifier: string): string => require.resolve(specifier);

/** This CLI's package version (rtbench --version, and the saved run when installed). */
export const CLI_VERSION = (JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'package.json'), 'utf8')) as { version: string }).version;
