/**
 * What `rtbench runtimes <name> --releases` lists: the releases of one
 * runtime that a variant can name (`node@24.3.0`, `workerd@<YYYY-MM-DD>`), the
 * pins that name some of them too (`node@24`), which this machine holds
 * (node_modules beside rtbench, or the cache of installs on demand) and, for
 * those, the version and engine the runtime itself says (asked without
 * installing anything). npm's list comes through the runtime store's index:
 * the registry, or only what this machine holds under RTBENCH_NO_INSTALL;
 * when it cannot be read, the pins and held releases are listed with why.
 */
import { existsSync, readdirSync } from 'node:fs';
import { RuntimeUnavailableError, type RuntimePlugin, type RuntimeReleases } from '@rtbench/runtime-kit';
import { askPlugin, runtimePlugins } from '@rtbench/runtime-registry';
import { stableVersionsInOrder } from '@rtbench/core/versions';
import { UsageError } from '@rtbench/core/usage-error';
import { runtimeCacheDir, runtimeStore } from './runtime-store.ts';

interface ReleaseRow {
  /** How a variant names it: "node@24.3.0". */
  spec: string;
  /** The version of the npm package it installs (workerd's "1.<YYYYMMDD>.0" for workerd@<YYYY-MM-DD>). */
  npmVersion: string;
  /** The other names of it: a pin ("node@24") and the bare name of a default ("node"). */
  alsoNamed: string[];
  /** Where this machine holds it; absent: a run that names it installs it first. */
  held?: 'workspace' | 'cache';
  /** What the held release says it is. */
  version?: string;
  engine?: string;
}

export interface ReleasesListing {
  runtime: string;
  /** The npm package whose versions are its releases. */
  package: string;
  /** How many stable releases npm's list has; absent when it was not read. */
  published?: number;
  /** Why npm's list was not read, or is only what this machine holds. */
  unlisted?: string;
  /** Oldest first. */
  rows: ReleaseRow[];
}

/** The newest releases listed beside the pinned and held ones, unless every one is asked for. */
export const NEWEST_LISTED = 10;

/** `name`'s plug-in and its releases hook, or a usage error naming the runtimes that have one. */
function releasesOf(name: string): { plugin: RuntimePlugin; releases: RuntimeReleases } {
  const plugins = runtimePlugins();
  const plugin = plugins.find((p) => p.name === name);
  const named = plugins.filter((p) => p.releases).map((p) => p.name);
  if (!plugin) throw new UsageError(`no runtime "${name}": name one of ${plugins.map((p) => p.name).join(', ')}`);
  if (!plugin.releases) throw new UsageError(`${name} names no release but its pins (\`rtbench runtimes\`); releases are named for ${named.join(', ')}`);
  return { plugin, releases: plugin.releases };
}

/** The versions of `pkg` in the runtime cache (entries `<package>@<version>`; another platform's, `+<platform>`, are not this machine's). */
function cachedVersions(pkg: string): string[] {
  const dir = runtimeCacheDir();
  if (!existsSync(dir)) return [];
  const prefix = `${pkg.replace('/', '+')}@`;
  return readdirSync(dir).flatMap((entry) => (entry.startsWith(prefix) && !entry.includes('+', prefix.length) ? [entry.slice(prefix.length)] : []));
}

/** The rows in order: every pinned and held release, and npm's newest `newest` (all of them when undefined). */
export function releaseRows(published: readonly string[], pinned: ReadonlyMap<string, string[]>, held: readonly string[], newest: number | undefined): string[] {
  const latest = newest === undefined ? published : published.slice(Math.max(0, published.length - newest));
  return stableVersionsInOrder([...new Set([...pinned.keys(), ...held, ...latest])]);
}

/** `name`'s releases, found and asked without installing anything; `all`: every release npm lists, not only the newest few. */
export async function listReleases(name: string, { all = false } = {}): Promise<ReleasesListing> {
  const { plugin, releases } = releasesOf(name);
  const pkg = releases.template.package;
  const store = runtimeStore();
  let published: string[] | undefined;
  let unlisted: string | undefined;
  try {
    published = await store.releases.versions(pkg);
    if (store.releases.offline !== undefined) unlisted = `${store.releases.offline}: only what this machine holds is listed`;
  } catch (error) {
    unlisted = `npm's list of ${pkg} could not be read (${(error as Error).message.split('\n')[0]})`;
  }
  // Each pin's version, with its spec and, for the default, the bare name (its note says "`node` means this one").
  const pinned = new Map<string, string[]>();
  for (const rt of plugin.npmRuntimes) {
    const note = plugin.knownSpecs().find((k) => k.spec === rt.spec)?.note ?? '';
    pinned.set(rt.version, [...(pinned.get(rt.version) ?? []), rt.spec, ...(note.includes(`\`${name}\` means this one`) ? [name] : [])]);
  }
  const versions = releaseRows(published ?? [], pinned, cachedVersions(pkg), all ? undefined : NEWEST_LISTED);
  const lookOnly = store.withoutInstalling();
  const rows = await Promise.all(
    versions.map(async (npmVersion): Promise<ReleaseRow> => {
      const spec = `${name}@${releases.tagOf(npmVersion)}`;
      const alsoNamed = pinned.get(npmVersion) ?? [];
      // A pin is found by its own name: that needs no list of releases.
      const asked = alsoNamed[0] ?? spec;
      try {
        const t = await askPlugin(plugin, `resolving "${asked}"`, () => plugin.resolve(asked, lookOnly));
        return { spec, npmVersion, alsoNamed, held: t.npmLocation ?? 'workspace', version: t.version, engine: `${plugin.engine.displayName} ${t.engineVersion}` };
      } catch (error) {
        if (error instanceof RuntimeUnavailableError) return { spec, npmVersion, alsoNamed };
        throw error;
      }
    }),
  );
  return { runtime: name, package: pkg, ...(published && unlisted === undefined ? { published: published.length } : {}), ...(unlisted ? { unlisted } : {}), rows };
}
