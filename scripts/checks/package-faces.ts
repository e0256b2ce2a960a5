/**
 * A package's faces: each entry its package.json `exports` names (its index,
 * and a sub-entry such as @rtbench/host/files), with the names it hands on
 * (read with TypeScript's parser: `export { … }`, exported declarations, and
 * what a relative `export *` hands on). A face a reader can take in names few;
 * a package with more to offer has more faces, one a job. Read by
 * scripts/checks/structure-targets.ts, which holds host's faces to a size.
 * A check run in `pnpm test`: test/package-faces.test.ts tests it, test/structure-targets.test.ts runs it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportedNames } from './kit-exports.ts';

/** The most names one face of a package may hand on. */
export const MOST_FACE_NAMES = 40;

/** One entry of a package and how many names it hands on. */
export interface Face {
  /** The entry as imported: "@rtbench/host/files". */
  entry: string;
  /** Its module, from the repository's root. */
  file: string;
  names: number;
}

/** Each TypeScript entry of the package in `dir` (a path from `root`), with its count of names. */
export function facesOf(root: string, dir: string): Face[] {
  const manifest = join(root, dir, 'package.json');
  if (!existsSync(manifest)) return [];
  const { name, exports } = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; exports?: Record<string, unknown> };
  return Object.entries(exports ?? {}).flatMap(([key, target]) => {
    if (typeof target !== 'string' || !target.endsWith('.ts')) return [];
    const file = join(dir, target);
    return [{ entry: key === '.' ? name : `${name}/${key.replace(/^\.\//, '')}`, file, names: exportedNames(join(root, file)).length }];
  });
}
