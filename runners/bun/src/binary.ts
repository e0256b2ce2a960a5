/**
 * Finding the bun binary and asking it what it is. The npm package `bun`
 * moves the platform binary to bun/bin/bun.exe in its postinstall (allowed in
 * rtbench's checkout by the root package.json); before that, or without it
 * (installs on demand run no scripts: npm-installer.ts), bin/bun.exe is a
 * small placeholder and the binary is in the platform package
 * (@oven/bun-linux-x64/bin/bun, or the host platform's), an optional dependency of `bun`.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binaryInPackage, declareNpmRuntime, existingFile, probeOutput, type RuntimeTarget, RuntimeUnavailableError } from '@rtbench/runtime-kit';

/** The real binary is tens of MB; the placeholder left before postinstall is tiny. */
const MIN_BINARY_BYTES = 1 << 20;

const inPlatformPackage = (binaryPackage: string) => ({ package: 'bun', binaryPackage, binary: 'bin/bun' });

/** The pinned `bun` (runners/bun/package.json); its binary is in its optional dependency for the platform (glibc builds on Linux). */
export const npmBun = declareNpmRuntime({
  fromUrl: import.meta.url,
  spec: 'bun',
  dependency: 'bun',
  platforms: {
    'linux-x64': inPlatformPackage('@oven/bun-linux-x64'),
    'linux-arm64': inPlatformPackage('@oven/bun-linux-aarch64'),
    'darwin-arm64': inPlatformPackage('@oven/bun-darwin-aarch64'),
    'darwin-x64': inPlatformPackage('@oven/bun-darwin-x64'),
  },
  binaryIn: (dir, entry) => existingFile(join(dir, 'bin', 'bun.exe'), MIN_BINARY_BYTES) ?? binaryInPackage(dir, entry),
});

export async function probeBun(spec: string, binary: string, source: RuntimeTarget['source']): Promise<RuntimeTarget> {
  // JavaScriptCore's revision is only visible from inside (process.versions.webkit).
  const out = await probeOutput(
    spec,
    binary,
    ['--no-env-file', '--no-install', '-e', 'console.log(JSON.stringify([Bun.version, process.versions.webkit ?? ""]))'],
    { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' },
    30_000,
    tmpdir(),
  );
  let version: string;
  let webkit: string;
  try {
    [version, webkit] = JSON.parse(out.trim().split('\n').pop() ?? '') as [string, string];
  } catch {
    throw new RuntimeUnavailableError(`${spec}: ${binary} is not bun (it printed ${JSON.stringify(out.slice(0, 80))})`);
  }
  return { runtime: 'bun', spec, binary, source, version, engine: 'jsc', engineVersion: webkit || 'unknown' };
}
