/**
 * Finding runtime binaries that npm packages install. Resolution starts from
 * the runner's own package (createRequire), so it works in a fresh clone and
 * wherever pnpm puts the store; a chain follows a package into its own
 * (optional) dependencies, e.g. deno -> @deno/linux-x64-glibc.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { RuntimeUnavailableError } from './types.ts';

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

/** A file inside the last package of `chain`, or undefined. */
export function fileInPackage(fromUrl: string, chain: readonly string[], file: string): string | undefined {
  const dir = packageDir(fromUrl, chain);
  return dir === undefined ? undefined : join(dir, file);
}

/** The "version" of the last package of `chain`, or undefined. */
export function packageVersion(fromUrl: string, chain: readonly string[]): string | undefined {
  const dir = packageDir(fromUrl, chain);
  if (dir === undefined) return undefined;
  try {
    return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}


/**
 * The binary inside a runtime's npm platform package (@deno/linux-x64-glibc,
 * @cloudflare/workerd-linux-64, …), reached through the wrapper package the
 * runner depends on. Runners run it directly, so they own the real PID.
 */
export function platformPackageBinary(o: {
  runtime: string;
  fromUrl: string;
  wrapper: string;
  platformPackages: Readonly<Record<string, string>>;
  file: string;
}): string {
  const platformPackage = o.platformPackages[`${process.platform}-${process.arch}`];
  if (!platformPackage) {
    throw new RuntimeUnavailableError(`${o.runtime}: rtbench has no npm build of ${o.runtime} for ${process.platform}-${process.arch}; use ${o.runtime}=/path/to/${o.runtime}`);
  }
  const binary = fileInPackage(o.fromUrl, [o.wrapper, platformPackage], o.file);
  if (!binary) {
    throw new RuntimeUnavailableError(
      `${o.runtime} is not installed: run \`npx pnpm install\` in the rtbench checkout (it comes from the npm packages ${o.wrapper} and ${platformPackage})`,
    );
  }
  return binary;
}
