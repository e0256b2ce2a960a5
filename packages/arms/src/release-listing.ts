/**
 * A runtime's releases listed, beside what `rtbench runtimes` lists
 * (runtime-listing.ts): `node@24.0.0..node@26.10.0 [--engine-flag …]
 * [ENV=value …]` (the releases a bisect searches, a release matrix's range)
 * and `node@latest~3`, oldest first, from the registry's list (the plug-in's
 * `releases` hook, runtime-kit releases.ts), and the variant each release
 * is measured as (the same flags and environment on every release).
 * `react@18.3.1..react@19.2.0 [workerd] […]`: a package's versions the same
 * way, each measured as an arm that pins it (variants.ts). A version a
 * package that moves with it in the suite has no release of (react-server-dom-webpack
 * of a react) cannot be had as a set (package-pins.ts): it is left out of the
 * range and said, and the range is refused only when none is left.
 */
import { releaseFor, RuntimeUnavailableError, type RuntimePlugin, type RuntimeReleases } from '@rtbench/runtime-kit';
import type { ReleaseIndex } from '@rtbench/host';
import { parseVariant, quotePart, splitVariantList } from './variants.ts';
import { runtimeStore } from './runtime-store.ts';
import { pluginForSpec } from '@rtbench/runtime-registry';
import { bundleSuite, isBroughtEntry, locateSuite } from '@rtbench/suite-loader';
import { UsageError } from '@rtbench/core/usage-error';
import type { VariantSpec } from '@rtbench/runtime-registry';
import { followersOf, listedWhere } from './package-pins.ts';

const RANGE_SYNTAX = '<runtime>@<first>..<runtime>@<last> [--engine-flag ...] [ENV=value ...], e.g. node@24.0.0..node@26.10.0; or a package the suite imports: <package>@<first>..<package>@<last> [<runtime>] [...], e.g. react@18.3.1..react@19.2.0 workerd';

/** A version of a package's range left out: a package that moves with it has no release of it. */
export interface SkippedVersion {
  tag: string;
  reason: string;
}

export interface ReleaseRange {
  /** The runtime whose releases these are; absent for a package's versions (its arms run on a runtime of `extra`, or node). */
  plugin?: RuntimePlugin;
  /** What a release is written as `<name>@<tag>` of: the runtime, or the package (`react`). */
  runtime: string;
  /** The releases' spec tags, oldest first, both ends included. */
  tags: string[];
  /** Flags and environment written after the range, as variant parts (and, after a package's range, its runtime). */
  extra: string[];
  /** A package's versions left out of `tags`, oldest first: their set cannot be had. */
  skipped?: SkippedVersion[];
}

/** `react@18.3.1..react@19.2.0`: a package the suite imports, over its versions on npm (variants.ts pins). */
const PACKAGE_RANGE = /^((?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*)@(\d[^@]*?)\.\.(?:\1@)?(\d\S*)$/;

/**
 * The versions of `tags` at which `name` and the packages that move with it
 * (`followers`) can be had as one set, each follower having the version too,
 * and the others, each with why, from the registry's lists (`index`).
 */
export async function versionsOfSets(name: string, tags: readonly string[], followers: readonly string[], index: ReleaseIndex): Promise<{ tags: string[]; skipped: SkippedVersion[] }> {
  const theirs = await Promise.all(followers.map(async (f) => ({ name: f, versions: new Set(await index.versions(f)) })));
  const kept: string[] = [];
  const skipped: SkippedVersion[] = [];
  for (const tag of tags) {
    const lacking = theirs.filter((f) => !f.versions.has(tag)).map((f) => f.name);
    if (!lacking.length) kept.push(tag);
    else skipped.push({ tag, reason: `${lacking.join(' and ')}, which ${lacking.length === 1 ? 'moves' : 'move'} with ${name}, ${lacking.length === 1 ? 'has' : 'have'} no release ${tag} ${listedWhere(index.offline)}` });
  }
  return { tags: kept, skipped };
}

/**
 * The packages that move with `name` in the suites (react-dom and
 * react-server-dom-webpack with react), read from each suite's bundle for the
 * range's runtime as an arm's pins are. None from a suite rtbench does not
 * bundle (a brought file) or cannot: its plan says why.
 */
async function followersInSuites(suites: readonly string[], name: string, runtimeSpec: string): Promise<string[]> {
  const plugin = pluginForSpec(runtimeSpec);
  if (!plugin) return [];
  const found = new Set<string>();
  for (const suite of suites) {
    try {
      const location = locateSuite(suite);
      if (isBroughtEntry(location.entry)) continue;
      const { packages } = await bundleSuite(location.entry, location.name, plugin.name, plugin.bundle);
      const pinned = packages.find((p) => p.name === name);
      if (pinned) for (const f of followersOf(pinned, packages, new Set([name]))) found.add(f.name);
    } catch {
      continue;
    }
  }
  return [...found].sort();
}

/** A package's range without the versions its set cannot be had at in the suites; refused when none is left. */
async function keepSets(range: ReleaseRange, suites: readonly string[], head: string, command: string): Promise<ReleaseRange> {
  if (!suites.length) return range;
  const followers = await followersInSuites(suites, range.runtime, releaseVariant(range, range.tags[0]!).runtimeSpec);
  if (!followers.length) return range;
  let sets: { tags: string[]; skipped: SkippedVersion[] };
  try {
    sets = await versionsOfSets(range.runtime, range.tags, followers, runtimeStore().releases);
  } catch (error) {
    throw new UsageError(`${command} ${head}: could not list the versions of ${followers.join(', ')} (${(error as Error).message.split('\n')[0]})`);
  }
  if (!sets.tags.length) throw new UsageError(`${command} ${head}: no version in it can be had as the set ${[range.runtime, ...followers].join(', ')} (${sets.skipped[0]!.reason}, and so on for every version)`);
  return { ...range, tags: sets.tags, ...(sets.skipped.length ? { skipped: sets.skipped } : {}) };
}

/** A package's versions from `fromTag` to `toTag`, both published, oldest first (stable versions only). */
async function listPackageRange(name: string, fromTag: string, toTag: string, extra: string[], command: string, suites: readonly string[]): Promise<ReleaseRange> {
  const head = `${name}@${fromTag}..${name}@${toTag}`;
  let published: string[];
  try {
    published = await runtimeStore().releases.versions(name);
  } catch (error) {
    throw new UsageError(`${command} ${head}: could not list ${name}'s versions (${(error as Error).message.split('\n')[0]})`);
  }
  for (const tag of [fromTag, toTag]) {
    if (!published.includes(tag)) throw new UsageError(`${command} ${head}: ${name} has no release ${tag} ${listedWhere(runtimeStore().releases.offline)}${published.length ? ` (the newest is ${published.at(-1)})` : ''}`);
  }
  const [a, b] = [published.indexOf(fromTag), published.indexOf(toTag)];
  if (a >= b) throw new UsageError(`${command} ${head}: the first version must be older than the last`);
  return keepSets({ runtime: name, tags: published.slice(a, b + 1), extra }, suites, head, command);
}

/** The variant a release is measured as: "node@24.3.0 --flag ENV=x". */
export function releaseVariant(range: Pick<ReleaseRange, 'runtime' | 'extra'>, tag: string): VariantSpec {
  return parseVariant([`${range.runtime}@${tag}`, ...range.extra].map(quotePart).join(' '));
}

/** Splits the range text; the release list itself is fetched by `listRange`. */
export function parseRange(text: string, command = 'bisect'): { plugin?: RuntimePlugin; runtime: string; fromTag: string; toTag: string; extra: string[] } {
  const lists = splitVariantList(text);
  if (lists.length !== 1) throw new UsageError(`${command} ${JSON.stringify(text)}: one range, no commas. Syntax: ${RANGE_SYNTAX}`);
  const [head, ...extra] = lists[0]!;
  const pkg = PACKAGE_RANGE.exec(head ?? '');
  if (pkg && !pluginForSpec(`${pkg[1]}@${pkg[2]}`)) {
    // The arms' syntax (a runtime after the pins, flags, environment) is checked as a variant's is.
    releaseVariant({ runtime: pkg[1]!, extra }, pkg[2]!);
    return { runtime: pkg[1]!, fromTag: pkg[2]!, toTag: pkg[3]!, extra };
  }
  const m = /^([a-z]+)@([^.][^]*?)\.\.(?:([a-z]+)@)?(.+)$/.exec(head ?? '');
  if (!m) throw new UsageError(`${command} ${JSON.stringify(text)}: not a range of releases. Syntax: ${RANGE_SYNTAX}`);
  const [, runtime, fromTag, toRuntime, toTag] = m as unknown as [string, string, string, string | undefined, string];
  if (toRuntime !== undefined && toRuntime !== runtime) throw new UsageError(`${command} ${head}: both ends must be releases of one runtime (${runtime} and ${toRuntime})`);
  const plugin = pluginForSpec(`${runtime}@${fromTag}`);
  if (!plugin || plugin.name !== runtime) throw new UsageError(`${command} ${head}: unknown runtime "${runtime}"`);
  if (!plugin.releases) throw new UsageError(`${command} ${head}: rtbench does not know where ${runtime}'s releases are published`);
  for (const tag of [fromTag, toTag]) {
    if (!plugin.releases.looksLikeRelease(tag)) throw new UsageError(`${command} ${head}: "${runtime}@${tag}" is not a release written in full (e.g. ${runtime}@${plugin.releases.tagOf(plugin.releases.template.version)})`);
  }
  // The flags and environment are checked as a variant's are.
  releaseVariant({ runtime, extra }, fromTag);
  return { plugin, runtime, fromTag, toTag, extra };
}

/**
 * The releases from `fromTag` to `toTag`, both included, oldest first, as
 * spec tags: the range a bisect searches. Each end must be a published release.
 */
export async function releasesBetween(releases: RuntimeReleases, runtime: string, fromTag: string, toTag: string, index: ReleaseIndex): Promise<string[]> {
  const from = await releaseFor(releases, runtime, fromTag, index);
  const to = await releaseFor(releases, runtime, toTag, index);
  const published = await index.versions(releases.template.package);
  const a = published.indexOf(from.version);
  const b = published.indexOf(to.version);
  if (a >= b) throw new RuntimeUnavailableError(`${runtime}@${fromTag}..${runtime}@${toTag}: the first release must be older than the last`);
  // Several npm versions may share a tag (workerd: one date): the tag names the last, as npmVersionOf reads it.
  return [...new Set(published.slice(a, b + 1).map((v) => releases.tagOf(v)))];
}

/**
 * The range with its releases listed from the registry; a one-line usage
 * error when it cannot be. A package's versions are kept where its set can
 * be had in `suites` (the suites it is measured on).
 */
export async function listRange(text: string, command = 'bisect', suites: readonly string[] = []): Promise<ReleaseRange> {
  const { plugin, runtime, fromTag, toTag, extra } = parseRange(text, command);
  if (!plugin) return listPackageRange(runtime, fromTag, toTag, extra, command, suites);
  try {
    const tags = await releasesBetween(plugin.releases!, runtime, fromTag, toTag, runtimeStore().releases);
    return { plugin, runtime, tags, extra };
  } catch (error) {
    if (error instanceof RuntimeUnavailableError) throw new UsageError(error.message);
    throw error;
  }
}

/** `node@latest~3 [--flag …]`: the last N releases the registry lists, oldest first (release matrices); a package's as `listRange` keeps them. */
export async function listLatest(text: string, command: string, suites: readonly string[] = []): Promise<ReleaseRange | undefined> {
  const lists = splitVariantList(text);
  const [head, ...extra] = lists[0] ?? [];
  const m = /^((?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*)@latest~(\d+)$/.exec(head ?? '');
  if (!m || lists.length !== 1) return undefined;
  const [, runtime, count] = m as unknown as [string, string, string];
  const plugin = pluginForSpec(`${runtime}@latest`) ?? pluginForSpec(runtime);
  if (!plugin && PACKAGE_RANGE.test(`${runtime}@0..0`)) return latestOfPackage(runtime, Number(count), extra, command, suites);
  if (!plugin || plugin.name !== runtime) throw new UsageError(`${command} ${head}: unknown runtime "${runtime}"`);
  if (!plugin.releases) throw new UsageError(`${command} ${head}: rtbench does not know where ${runtime}'s releases are published`);
  const n = Number(count);
  if (!(n >= 2)) throw new UsageError(`${command} ${head}: latest~N takes N of 2 or more (a step needs two releases)`);
  releaseVariant({ runtime, extra }, plugin.releases.tagOf(plugin.releases.template.version));
  try {
    const published = await runtimeStore().releases.versions(plugin.releases.template.package);
    const tags = [...new Set(published.map((v) => plugin.releases!.tagOf(v)))];
    return { plugin, runtime, tags: tags.slice(-n), extra };
  } catch (error) {
    throw new UsageError(`${command} ${head}: could not list ${runtime}'s releases (${(error as Error).message.split('\n')[0]})`);
  }
}

/** `react@latest~3`: a package's last N stable versions, as `listLatest` lists a runtime's. */
async function latestOfPackage(name: string, n: number, extra: string[], command: string, suites: readonly string[]): Promise<ReleaseRange> {
  const head = `${name}@latest~${n}`;
  if (!(n >= 2)) throw new UsageError(`${command} ${head}: latest~N takes N of 2 or more (a step needs two releases)`);
  releaseVariant({ runtime: name, extra }, '0.0.0');
  let tags: string[];
  try {
    tags = (await runtimeStore().releases.versions(name)).slice(-n);
  } catch (error) {
    throw new UsageError(`${command} ${head}: could not list ${name}'s versions (${(error as Error).message.split('\n')[0]})`);
  }
  return keepSets({ runtime: name, tags, extra }, suites, head, command);
}
