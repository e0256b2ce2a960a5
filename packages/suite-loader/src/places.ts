/**
 * Where rtbench keeps things. In its own checkout (a pnpm workspace): the
 * cache in .rtbench-cache/ and suites in bench/, beside the code. Installed
 * in another repository (`npm i -D rtbench`): suites in ./bench of the
 * directory it is run in, the cache (bundles, runtimes) under
 * $XDG_CACHE_HOME/rtbench (~/.cache/rtbench).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The rtbench checkout, or the installed package's grandparent (packages/suite-loader/src -> ../../..). */
export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** Running from rtbench's own checkout, not from an installed package. */
export const inCheckout = existsSync(join(repoRoot, 'pnpm-workspace.yaml')) && existsSync(join(repoRoot, 'packages', 'suite-loader', 'src', 'places.ts'));
/** The project rtbench works for: its own checkout, or the directory an installed rtbench is run in. */
export const projectDir = inCheckout ? repoRoot : process.cwd();
export const cacheDir = inCheckout ? join(repoRoot, '.rtbench-cache') : join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'rtbench');
export const suitesDir = join(projectDir, 'bench');

const require = createRequire(import.meta.url);
/** A module of one of rtbench's packages, as this package resolves it (the same copy the harness uses). */
export const rtbenchModule = (specifier: string): string => require.resolve(specifier);
