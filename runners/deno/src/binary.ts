/**
 * Finding the deno binary and asking it what it is. The npm package `deno`
 * ships a wrapper (bin.cjs) that spawns the real binary as a child; killing
 * the wrapper could orphan deno, so rtbench runs the binary of the platform
 * package (an optional dependency of `deno`) directly. Its postinstall
 * script, which only swaps the wrapper for the binary, is not needed (and not
 * run: root package.json, and npm-installer.ts for installs on demand).
 */
import { declareNpmRuntime, probeOutput, type RuntimeTarget, RuntimeUnavailableError } from '@rtbench/runtime-kit';

const inPlatformPackage = (binaryPackage: string) => ({ package: 'deno', binaryPackage, binary: 'deno' });

/** The pinned `deno` (runners/deno/package.json); its binary is in its optional dependency for the platform (glibc builds on Linux). */
export const npmDeno = declareNpmRuntime({
  fromUrl: import.meta.url,
  spec: 'deno',
  dependency: 'deno',
  platforms: {
    'linux-x64': inPlatformPackage('@deno/linux-x64-glibc'),
    'linux-arm64': inPlatformPackage('@deno/linux-arm64-glibc'),
    'darwin-arm64': inPlatformPackage('@deno/darwin-arm64'),
    'darwin-x64': inPlatformPackage('@deno/darwin-x64'),
  },
});

/** `deno --version` prints "deno 2.9.6 (stable, …)\nv8 15.0.245.2-rusty\ntypescript …"; no script runs. */
export function parseDenoVersion(text: string): { version: string; v8: string } | undefined {
  const deno = /^deno (\S+)/m.exec(text);
  const v8 = /^v8 (\S+)/m.exec(text);
  return deno && v8 ? { version: deno[1]!, v8: v8[1]! } : undefined;
}

export async function probeDeno(spec: string, binary: string, source: RuntimeTarget['source']): Promise<RuntimeTarget> {
  const out = await probeOutput(spec, binary, ['--version'], { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' });
  const parsed = parseDenoVersion(out);
  if (!parsed) throw new RuntimeUnavailableError(`${spec}: ${binary} is not deno (\`--version\` printed ${JSON.stringify(out.slice(0, 80))})`);
  return { runtime: 'deno', spec, binary, source, version: parsed.version, engine: 'v8', engineVersion: parsed.v8 };
}
