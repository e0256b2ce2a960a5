/**
 * Which bench/ folder a path falls in, and whether a file of one may name a
 * file of another: a suite reaches only into its own folder and into
 * bench/shared/ (code more than one suite runs), so renaming, moving or
 * deleting a suite breaks no other. Read by scripts/checks/structure-targets.ts.
 * A check run in `pnpm test`: test/suite-folders.test.ts tests it, test/structure-targets.test.ts runs it.
 */
import { relative, resolve, sep } from 'node:path';

/** The folder of bench/ that holds code more than one suite runs; not a suite. */
export const SHARED_FOLDER = 'shared';

/** The bench/ folder `path` lies in (`http-hello`, `shared`), or undefined outside bench/. */
export function benchFolderOf(benchDir: string, path: string): string | undefined {
  const inBench = relative(benchDir, path);
  if (inBench === '' || inBench.startsWith('..') || resolve(benchDir, inBench) !== resolve(path)) return undefined;
  return inBench.split(sep)[0];
}

/**
 * The other suite's folder that `spec` (an import specifier or a relative path
 * written in `file`) reaches into, or undefined when it stays in `file`'s own
 * folder, goes to bench/shared/, or leaves bench/. A suite's package name
 * (`@rtbench/bench-<suite>`) counts as its folder.
 */
export function reachesIntoSuite(benchDir: string, file: string, spec: string): string | undefined {
  const own = benchFolderOf(benchDir, file);
  if (own === undefined) return undefined;
  const named = /^@rtbench\/bench-([\w-]+)/.exec(spec)?.[1];
  const target = named ?? (spec.startsWith('.') ? benchFolderOf(benchDir, resolve(file, '..', spec)) : undefined);
  return target === undefined || target === own || target === SHARED_FOLDER ? undefined : target;
}
