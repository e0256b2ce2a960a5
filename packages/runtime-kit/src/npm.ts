/**
 * Finding runtime binaries that npm packages install. Resolution starts from
 * the plug-in's own package (createRequire), so it works in a fresh clone and
 * wherever pnpm puts the store; a chain follows a package into its own
 * (optional) dependencies, e.g. deno -> @deno/linux-x64-glibc.
 */
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Directory of the last package in `chain`, or undefined if one is not installed. */
export function packageDir(fromUrl: string, chain: readonly string[]): string | undefined {
  let require = createRequire(fromUrl);
  let dir: string | undefined;
  for (const name of chain) {
    let manifest: string;
    try {
      manifest = require.resolve(`${name}/package.json`);
    } catch {
      return undefined;
    }
    dir = dirname(manifest);
    require = createRequire(manifest);
  }
  return dir;
}

/**
 * A file of a runtime's platform package (@deno/linux-x64-glibc, …), found
 * from the wrapper package at `wrapperDir` (the package npm or pnpm installed
 * it for, as an optional dependency); undefined when it is not there.
 * Plug-ins run that binary directly, so they own the real PID.
 */
export function platformPackageFile(wrapperDir: string, platformPackage: string, file: string): string | undefined {
  const pinned = manifestOf(wrapperDir)?.optionalDependencies?.[platformPackage];
  if (pinned === undefined) return undefined;
  const dir = packageDir(pathToFileURL(join(wrapperDir, 'package.json')).href, [platformPackage]);
  if (dir === undefined) return undefined;
  // Resolution also looks above the wrapper and in NODE_PATH (pnpm sets it to the checkout's
  // node_modules/.pnpm/node_modules), where another version's platform package can be: a cached
  // deno@2.5.0 whose own was missing ran the checkout's deno 2.9.6. Only the version the wrapper pins counts.
  if (/^\d+\.\d+\.\d+/.test(pinned) && manifestOf(dir)?.version !== pinned) return undefined;
  return existingFile(join(dir, file));
}

function manifestOf(dir: string): { version?: string; optionalDependencies?: Record<string, string> } | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: string; optionalDependencies?: Record<string, string> };
  } catch {
    return undefined;
  }
}

/** `path` when it is a file of at least `minBytes`, else undefined. */
export function existingFile(path: string, minBytes = 1): string | undefined {
  try {
    const s = statSync(path);
    return s.isFile() && s.size >= minBytes ? path : undefined;
  } catch {
    return undefined;
  }
}
