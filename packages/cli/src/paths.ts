import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The rtbench checkout (packages/cli/src -> ../../..). */
export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const cacheDir = join(repoRoot, '.rtbench-cache');
export const resultsDir = join(repoRoot, 'results');
