/**
 * Where the CLI keeps things: the places rtbench shares with its suite loader
 * (the checkout, the cache, the suites), runs in ./results of the project,
 * and this CLI's own version.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectDir } from '@rtbench/suite-loader/places';

export { cacheDir, inCheckout, repoRoot } from '@rtbench/suite-loader/places';
export const resultsDir = join(projectDir, 'results');

/** This CLI's package version (rtbench --version, and the saved run when installed). */
const CLI_PACKAGE = join(dirname(fileURLToPath(import.meta.url)), '..', 'package.json');
export const CLI_VERSION = (JSON.parse(readFileSync(CLI_PACKAGE, 'utf8')) as { version: string }).version;
