/**
 * Finding the workerd binary and what it is. The npm package `workerd`
 * ships a JS launcher; rtbench runs the platform package's binary itself
 * (@cloudflare/workerd-<platform>/bin/workerd) so it owns the real PID.
 *
 * workerd prints only its release date (`workerd --version`: "workerd
 * YYYY-MM-DD") and shows the worker no V8 version (process.versions.v8 is
 * empty), so the V8 version is read from the binary: V8 keeps its version
 * as a NUL-terminated literal ("15.8.62.5") in the string pool.
 */
import { declareNpmRuntime, findLiterals, probeOutput, type RuntimeReleases, type RuntimeTarget, RuntimeUnavailableError } from '@rtbench/runtime-kit';

const inPlatformPackage = (binaryPackage: string) => ({ package: 'workerd', binaryPackage, binary: 'bin/workerd' });

/**
 * The pinned `workerd` (runners/workerd/package.json); its binary is in its
 * optional dependency for the platform (x64 is "64" in workerd's names). Its
 * postinstall script only checks the platform package (or downloads it when
 * npm skipped it) and is not run.
 */
export const npmWorkerd = declareNpmRuntime({
  fromUrl: import.meta.url,
  spec: 'workerd',
  dependency: 'workerd',
  platforms: {
    'linux-x64': inPlatformPackage('@cloudflare/workerd-linux-64'),
    'linux-arm64': inPlatformPackage('@cloudflare/workerd-linux-arm64'),
    'darwin-arm64': inPlatformPackage('@cloudflare/workerd-darwin-arm64'),
    'darwin-x64': inPlatformPackage('@cloudflare/workerd-darwin-64'),
  },
});

/** The release date in a workerd npm version: 1.YYYYMMDD.N -> YYYY-MM-DD (what `workerd --version` prints). */
export function workerdDateOf(npmVersion: string): string | undefined {
  const m = /^\d+\.(\d{4})(\d{2})(\d{2})\./.exec(npmVersion);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : undefined;
}

const DATE_TAG = /^\d{4}-\d{2}-\d{2}$/;
const NPM_VERSION = /^1\.\d{8}\.\d+$/;

/**
 * workerd's releases on npm (`workerd`, versions 1.<yyyymmdd>.<n>), named
 * as the binary names itself, by date: workerd@YYYY-MM-DD. A date with
 * several npm versions names the last one; an npm version names itself.
 */
export const workerdReleases: RuntimeReleases = {
  template: npmWorkerd,
  diskPerRelease: '90–160 MB',
  tagOf: (v) => workerdDateOf(v) ?? v,
  npmVersionOf(tag, published) {
    if (NPM_VERSION.test(tag)) return tag;
    if (!DATE_TAG.test(tag)) return undefined;
    return published.filter((v) => workerdDateOf(v) === tag).at(-1);
  },
  looksLikeRelease: (tag) => DATE_TAG.test(tag) || NPM_VERSION.test(tag),
};

/** "workerd YYYY-MM-DD" -> "YYYY-MM-DD". */
function parseWorkerdVersion(text: string): string | undefined {
  return /^workerd (\S+)/m.exec(text)?.[1];
}

/**
 * major.minor.build.patch ending in a NUL, with no digit or dot before it;
 * V8 minors are one digit, builds at least two. Not "between NULs": older
 * releases (1.20251209.0, V8 14.2.231.7) store it right after other bytes.
 */
const V8_LITERAL = /(?<![\d.])(\d{1,2}\.\d\.\d{2,4}\.\d{1,4})\0/g;

/** The V8 version literal in a workerd binary, or "unknown" when there is not exactly one best candidate. */
export async function v8VersionOf(binary: string): Promise<string> {
  const found = [...(await findLiterals(binary, V8_LITERAL))].sort((a, b) => b[1] - a[1]);
  if (found.length === 0 || (found.length > 1 && found[0]![1] === found[1]![1])) return 'unknown';
  return found[0]![0];
}

export async function probeWorkerd(spec: string, binary: string, source: RuntimeTarget['source']): Promise<RuntimeTarget> {
  const out = await probeOutput(spec, binary, ['--version'], { PATH: process.env.PATH, HOME: process.env.HOME });
  const version = parseWorkerdVersion(out);
  if (!version) throw new RuntimeUnavailableError(`${spec}: ${binary} is not workerd (\`--version\` printed ${JSON.stringify(out.slice(0, 80))})`);
  return { runtime: 'workerd', spec, binary, source, version, engine: 'v8', engineVersion: await v8VersionOf(binary) };
}
