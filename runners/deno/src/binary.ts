/**
 * Finding the deno binary and asking it what it is. The npm package `deno`
 * ships a wrapper (bin.cjs) that spawns the real binary as a child; killing
 * the wrapper could orphan deno, so rtbench runs the platform package's
 * binary directly.
 */
import {
  platformPackageBinary,
  probeOutput,
  type RuntimeTarget,
  RuntimeUnavailableError,
} from '@rtbench/runner-kit';

const PLATFORM_PACKAGES: Record<string, string> = {
  'linux-x64': '@deno/linux-x64-glibc',
  'linux-arm64': '@deno/linux-arm64-glibc',
  'darwin-x64': '@deno/darwin-x64',
  'darwin-arm64': '@deno/darwin-arm64',
};

export function npmDenoBinary(): string {
  return platformPackageBinary({ runtime: 'deno', fromUrl: import.meta.url, wrapper: 'deno', platformPackages: PLATFORM_PACKAGES, file: 'deno' });
}

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
