/**
 * Vite+ (the `vite-plus` package) hands on vitest as its `test` entry, and a
 * project on it writes its bench files against that entry:
 * `import { bench } from 'vite-plus/test'`, or through an npm alias of the
 * package (`"vp": "npm:vite-plus@…"`, then `'vp/test'`). Such a file is a
 * vitest bench file; an alias is known by the `name` in the package.json
 * installed under it, since any package may be installed under any name.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const VITE_PLUS = 'vite-plus';

/** A bare specifier of a package's `test` entry: the package's name, scoped or not. */
export const TEST_ENTRY = /^((?:@[^/.][^/]*\/)?[^/.][^/]*)\/test$/;

/** The imports of a module's text that name a package's `test` entry, as written. */
const IMPORTS_TEST_ENTRY = /(?:from\s*|import\s*\(?\s*|require\s*\(\s*)['"]((?:@[^'"/.][^'"/]*\/)?[^'"/.][^'"/]*)\/test['"]/g;

/** The name in the package.json of the package installed as `name`, seen from `fromDir` as Node.js resolution walks up. */
function installedName(name: string, fromDir: string): string | undefined {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const manifest = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(manifest)) {
      try {
        return (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name as string | undefined;
      } catch {
        return undefined;
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** Whether the package a module in `fromDir` imports as `name` is Vite+: named so, or an alias whose installed package is. */
export function isVitePlus(name: string, fromDir: string): boolean {
  return name === VITE_PLUS || installedName(name, fromDir) === VITE_PLUS;
}

/** Whether a module (its text, at `file`) imports Vite+'s test entry, which is vitest. */
export function importsVitePlusTest(source: string, file: string): boolean {
  for (const [, name] of source.matchAll(IMPORTS_TEST_ENTRY)) if (isVitePlus(name!, dirname(file))) return true;
  return false;
}
