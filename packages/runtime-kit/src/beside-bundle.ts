/**
 * Files kept beside a bundle in its folder of the program cache, each kind
 * named by the bundle's file name and a suffix of its own (its source map,
 * `<bundle>.map`; its engine's code cache, `<bundle>.code-cache`), and
 * removed with it: the program cache removes a bundle's old versions, and
 * what was kept beside one goes at the next sweep of its kind in the folder.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** One kind of file (or folder) kept beside bundles. */
export interface KeptBeside {
  /** Where this kind is kept for `bundlePath`. */
  pathOf(bundlePath: string): string;
  /** Removes, in `bundlePath`'s folder, this kind's files whose bundle is no longer there. */
  removeOrphans(bundlePath: string): void;
}

/** The kind kept beside a bundle under `suffix`. */
export function keptBeside(suffix: string): KeptBeside {
  return {
    pathOf: (bundlePath) => `${bundlePath}${suffix}`,
    removeOrphans(bundlePath) {
      const dir = dirname(bundlePath);
      for (const name of readdirSync(dir)) {
        if (name.endsWith(suffix) && !existsSync(join(dir, name.slice(0, -suffix.length)))) rmSync(join(dir, name), { recursive: true, force: true });
      }
    },
  };
}
