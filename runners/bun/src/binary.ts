/**
 * Finding the bun binary and asking it what it is. The npm package `bun`
 * moves the platform binary to bun/bin/bun.exe in its postinstall (allowed in
 * the root package.json); before that, bin/bun.exe is a small placeholder and
 * the binary is still in the platform package (@oven/bun-<platform>/bin/bun).
 */
import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import {
  fileInPackage,
  probeOutput,
  type RuntimeTarget,
  RuntimeUnavailableError,
} from '@rtbench/runner-kit';

const PLATFORM_PACKAGES: Record<string, string> = {
  'linux-x64': '@oven/bun-linux-x64',
  'linux-arm64': '@oven/bun-linux-aarch64',
  'darwin-x64': '@oven/bun-darwin-x64',
  'darwin-arm64': '@oven/bun-darwin-aarch64',
};

/** The real binary is tens of MB; the placeholder left before postinstall is tiny. */
const MIN_BINARY_BYTES = 1 << 20;

function realBinary(path: string | undefined): string | undefined {
  if (!path) return undefined;
  try {
    return statSync(path).size >= MIN_BINARY_BYTES ? path : undefined;
  } catch {
    return undefined;
  }
}

export function npmBunBinary(): string {
  const platformPackage = PLATFORM_PACKAGES[`${process.platform}-${process.arch}`];
  const found =
    realBinary(fileInPackage(import.meta.url, ['bun'], 'bin/bun.exe')) ??
    (platformPackage ? realBinary(fileInPackage(import.meta.url, ['bun', platformPackage], 'bin/bun')) : undefined);
  if (!found) {
    throw new RuntimeUnavailableError(
      'bun is not installed: run `npx pnpm install` in the rtbench checkout (it comes from the npm package bun, whose postinstall script must be allowed: root package.json pnpm.onlyBuiltDependencies lists it)',
    );
  }
  return found;
}

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
