/**
 * Packages pinned per arm: `react@18.3.1` (a version from npm, or an x-range
 * such as `react@19.2.x`: its newest release) or `react=/path/to/react` (a
 * local build). A pin names a package the suite's bundle holds; a package
 * whose version equals a pinned one's and which declares it a peer (react-dom
 * of react) follows the pin unless the arm names it too: the pin and its
 * followers are a set, resolved as one (the version every member has) and
 * refused when it cannot be had or when the arm pins its members at two
 * versions. Versions come from
 * the library store (host library-store.ts: installed on first use, proven on
 * every use); the record keeps each package's version and integrity, or path
 * and git commit, and the folder's sha256. Every refusal is a UsageError in
 * one line, before anything runs.
 * A request suite's declaration may install packages itself (a framework and
 * its adapter, as one set: its `installs`, its `prepare`): a pin of one of
 * those is checked against the registry and handed to the declaration, which
 * installs and builds for the arm; what it installed is the arm's record.
 */
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { isSuiteDefinition } from '@rtbench/core/suite';
import { type ArmPackages, type InstalledPackage, type RequestDeclaration, type RequestSuite } from '@rtbench/core';
import { servedBy, type Served } from '@rtbench/core/request';
import { importUserModule } from '@rtbench/process';
import type { PinnedPackage } from '@rtbench/core/schema';
import { isAppBuildFailure } from '@rtbench/host/apps';
import { gitState } from '@rtbench/host/git';
import { folderProof, LibraryStore, LibraryUnavailableError } from '@rtbench/host/installs';
import { DEFAULT_NODE_ENV, type BundledPackage } from '@rtbench/host/programs';
import { isResolved, type ResolvedVariant, type UnavailableVariant, type VariantSpec } from '@rtbench/runtime-registry';
import { bundleSuite, isBroughtEntry, storePolicy, suiteLoadError, type ArmBuild, type SuiteLocation } from '@rtbench/suite-loader';
import { UsageError } from '@rtbench/core/usage-error';
import { runtimeStore } from './runtime-store.ts';
import { pinText, unknownRuntimeMessage, VARIANT_SYNTAX } from './variants.ts';

type Pin = NonNullable<VariantSpec['packages']>[number];

let store: LibraryStore | undefined;
function libraryStore(): LibraryStore {
  store ??= new LibraryStore(storePolicy('libraries'));
  return store;
}

interface Manifest {
  name?: unknown;
  version?: unknown;
  dependencies?: Record<string, unknown>;
  optionalDependencies?: Record<string, unknown>;
  peerDependencies?: Record<string, unknown>;
}

function manifestOf(dir: string): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
}

/** Why a file does not read as JSON, in one line: JSON.parse's words (with its line and column), or the read's. */
function jsonFault(file: string): string {
  const text = readFileSync(file, 'utf8');
  try {
    JSON.parse(text);
    return 'not an object';
  } catch (error) {
    const message = (error as Error).message.split('\n')[0]!;
    // Older engines give only an offset: said as a line and column too.
    const at = /at position (\d+)$/.exec(message);
    if (!at) return message;
    const before = text.slice(0, Number(at[1])).split('\n');
    return `${message} (line ${before.length} column ${before.at(-1)!.length + 1})`;
  }
}

/**
 * Where a list of versions came from, as a refusal says it: npm's, or only
 * what this machine holds (`offline`, why: RTBENCH_NO_INSTALL), which is
 * no word on what npm has.
 */
export function listedWhere(offline: string | undefined): string {
  return offline === undefined ? 'on npm' : `among the versions this machine holds (${offline}, so npm was not asked)`;
}

/** The versions the registry has of a package, oldest first; `offline`: the list is only what this machine holds, and why. */
export type VersionsOf = { (name: string): Promise<string[]>; offline?: string };

/** npm's, as runtimes' releases are listed. */
const npmVersions: VersionsOf = (name) => runtimeStore().releases.versions(name);

/** Where `versionsOf`'s lists come from, as a refusal says it. */
const whereOf = (versionsOf: VersionsOf): string => listedWhere(versionsOf === npmVersions ? runtimeStore().releases.offline : versionsOf.offline);

/** The versions npm has of `name`, oldest first; a registry that cannot answer is a UsageError naming the arm. */
async function publishedVersions(spec: VariantSpec, pin: Pin, versionsOf: VersionsOf, name = pin.name): Promise<string[]> {
  try {
    return await versionsOf(name);
  } catch (error) {
    throw new UsageError(`${spec.id}: ${pinText(pin)}: ${(error as Error).message.split('\n')[0]}`);
  }
}

const X_RANGE = /^(\d+(?:\.\d+)?)\.x$/;

/**
 * The one version a set takes: a pinned package and the packages that move
 * with it (react, react-dom, react-server-dom-webpack) are released
 * together, so the set is the version each of them has: the pin's own, or
 * for an x-range (`19.2.x`) the newest release in it that every member has.
 * A set that cannot exist is refused in one line, naming the member that
 * lacks the version.
 */
async function setVersion(spec: VariantSpec, pin: Pin, followers: readonly string[], versionsOf: VersionsOf): Promise<string> {
  const wanted = pin.version!;
  const x = X_RANGE.exec(wanted);
  // A set the cache holds whole (each in its own entry, or in a set a declaration installed) was installed from npm:
  // the registry is not asked again (an x-range still is, for its newest).
  if (!x && [pin.name, ...followers].every((name) => libraryStore().holds(name, wanted))) return wanted;
  const published = await publishedVersions(spec, pin, versionsOf);
  const inRange = x ? published.filter((v) => v.startsWith(`${x[1]}.`)) : published.filter((v) => v === wanted);
  if (!inRange.length) {
    const newest = published.at(-1);
    throw new UsageError(`${spec.id}: ${pin.name} has no release ${wanted} ${whereOf(versionsOf)}${newest ? ` (the newest is ${newest})` : ''}`);
  }
  let candidates = inRange;
  for (const follower of followers) {
    const theirs = new Set(await publishedVersions(spec, pin, versionsOf, follower));
    const left = candidates.filter((v) => theirs.has(v));
    if (!left.length) {
      const set = [pin.name, ...followers].join(', ');
      throw new UsageError(`${spec.id}: the set ${set} cannot be had at ${wanted}: ${follower}, which moves with ${pin.name}, has no release ${x ? `in ${wanted} that ${pin.name} has too` : wanted} ${whereOf(versionsOf)}`);
    }
    candidates = left;
  }
  return candidates.at(-1)!;
}

const expandHome = (path: string): string => (path.startsWith('~/') ? join(homedir(), path.slice(2)) : path);

/** A local build: its folder must hold the package's package.json. */
function localPackage(spec: VariantSpec, pin: Pin, follows?: string): PinnedPackage & { proofDir: string } {
  const dir = resolve(expandHome(pin.path!));
  const file = join(dir, 'package.json');
  if (!existsSync(file)) throw new UsageError(`${spec.id}: ${pin.path} has no package.json: name the folder of the built ${pin.name} package`);
  const manifest = manifestOf(dir);
  // There but unreadable: said as it is, with where JSON.parse stopped, not as missing.
  if (!manifest) throw new UsageError(`${spec.id}: ${join(pin.path!, 'package.json')} is not valid JSON (${jsonFault(file)})`);
  if (manifest.name !== pin.name) throw new UsageError(`${spec.id}: ${pin.path} holds ${String(manifest.name)}, not ${pin.name}`);
  const git = gitState(dir);
  return { name: pin.name, version: String(manifest.version ?? ''), dir, sha256: '', path: pin.path!, ...(git ? { git } : {}), ...(follows ? { follows } : {}), proofDir: dir };
}

/** Whether `a` and `b` move together in the suite's bundle: released at one version, one declaring the other a peer. */
function moveTogether(a: BundledPackage, b: BundledPackage): boolean {
  return a.version === b.version && (manifestOf(a.dir)?.peerDependencies?.[b.name] !== undefined || manifestOf(b.dir)?.peerDependencies?.[a.name] !== undefined);
}

/** The packages that follow `pinned` (same version, declaring it a peer), unless the arm names them. */
export function followersOf(pinned: BundledPackage, imported: readonly BundledPackage[], named: ReadonlySet<string>): BundledPackage[] {
  return imported.filter((p) => !named.has(p.name) && p.version === pinned.version && manifestOf(p.dir)?.peerDependencies?.[pinned.name] !== undefined);
}

/** Refuses an arm whose pins split a set: two packages that move together pinned at two versions. */
function assertSetsAgree(spec: VariantSpec, fromNpm: readonly { name: string; version: string }[], byName: ReadonlyMap<string, BundledPackage>): void {
  for (const [i, a] of fromNpm.entries()) {
    for (const b of fromNpm.slice(i + 1)) {
      if (a.version === b.version || !moveTogether(byName.get(a.name)!, byName.get(b.name)!)) continue;
      throw new UsageError(`${spec.id}: ${a.name}@${a.version} and ${b.name}@${b.version} do not match: they are released together (one declares the other a peer), so an arm pins one version of both`);
    }
  }
}

/**
 * The packages `spec` pins, resolved against what the suite's bundle holds
 * (`imported`), installed or found, each proven; [] for an arm that pins none.
 */
async function resolvePins(suiteName: string, imported: readonly BundledPackage[], spec: VariantSpec, installs: ReadonlySet<string>, versionsOf: VersionsOf): Promise<PinnedPackage[]> {
  const pins = spec.packages ?? [];
  if (!pins.length) return [];
  const byName = new Map(imported.map((p) => [p.name, p]));
  const named = new Set(pins.map((p) => p.name));
  const wanted: { pin: Pin; follows?: string }[] = [];
  for (const pin of pins) {
    const bundled = byName.get(pin.name);
    if (!bundled) {
      // An arm that is a pin alone may be a runtime misspelt (nodejs@99): said as both, with the syntax every variant error shows.
      const alone = spec.id === pinText(pin) ? `${unknownRuntimeMessage(spec.id)}; nor does ${suiteName} import a package ${pin.name}\nVariant syntax: ${VARIANT_SYNTAX}` : undefined;
      throw new UsageError(alone ?? `${spec.id}: ${suiteName} does not import ${pin.name} (its packages: ${imported.map((p) => p.name).join(', ') || 'none'}${installs.size ? `; it installs: ${[...installs].join(', ')}` : ''})`);
    }
    // A local build is checked before the builds beside it are looked for.
    if (pin.path !== undefined) localPackage(spec, pin);
    wanted.push({ pin });
    for (const follower of followersOf(bundled, imported, named)) {
      named.add(follower.name);
      const path = pin.path !== undefined ? join(dirname(pin.path), basename(follower.name)) : undefined;
      if (path !== undefined && !existsSync(join(resolve(expandHome(path)), 'package.json'))) {
        throw new UsageError(`${spec.id}: ${follower.name} moves with ${pin.name} and has no build beside it at ${path}: name it too (${follower.name}=/path)`);
      }
      wanted.push({ pin: path !== undefined ? { name: follower.name, path } : { name: follower.name, version: pin.version! }, follows: pin.name });
    }
  }
  // Each set's version first, and the sets checked (as written, then as resolved), before anything is installed.
  assertSetsAgree(spec, wanted.filter((w) => !w.follows && w.pin.version !== undefined && !X_RANGE.test(w.pin.version)).map((w) => ({ name: w.pin.name, version: w.pin.version! })), byName);
  const versions = new Map<string, string>();
  for (const { pin, follows } of wanted) {
    if (pin.path !== undefined) continue;
    // A follower takes the version its set resolved to (react@19.2.x: react-dom and react-server-dom-webpack of the same release).
    const followers = wanted.filter((w) => w.follows === pin.name && w.pin.path === undefined).map((w) => w.pin.name);
    versions.set(pin.name, follows ? versions.get(follows)! : await setVersion(spec, pin, followers, versionsOf));
  }
  assertSetsAgree(spec, [...versions].map(([name, version]) => ({ name, version })), byName);
  const out: PinnedPackage[] = [];
  for (const { pin, follows } of wanted) {
    if (pin.path !== undefined) {
      const { proofDir, ...local } = localPackage(spec, pin, follows);
      out.push({ ...local, sha256: (await folderProof(proofDir)).sha256 });
      continue;
    }
    const version = versions.get(pin.name)!;
    try {
      const lib = await libraryStore().get(pin.name, version);
      out.push({ name: pin.name, version, dir: lib.dir, sha256: lib.sha256, ...(lib.integrity ? { integrity: lib.integrity } : {}), ...(follows ? { follows } : {}) });
    } catch (error) {
      if (error instanceof LibraryUnavailableError) throw new UsageError(`${spec.id}: ${error.message}`);
      throw error;
    }
  }
  return out;
}

/** An arm's pins split: those a declaration of its suite installs itself, and those resolved in the suite's bundle. */
export function splitPins(spec: VariantSpec, installs: ReadonlySet<string>): { installed: Pin[]; bundled: Pin[] } {
  const pins = spec.packages ?? [];
  return { installed: pins.filter((p) => installs.has(p.name)), bundled: pins.filter((p) => !installs.has(p.name)) };
}

/** What a declaration installed for an arm, as the arm's record holds it (each package once). */
export function installedRecord(installed: readonly InstalledPackage[]): PinnedPackage[] {
  const byName = new Map<string, PinnedPackage>();
  for (const p of installed) {
    if (byName.has(p.name)) continue;
    byName.set(p.name, { name: p.name, version: p.version, dir: p.dir, sha256: p.sha256, ...(p.integrity ? { integrity: p.integrity } : {}), ...(p.set ? { set: p.set } : {}) });
  }
  return [...byName.values()];
}

/** A request suite's declarations, or undefined for another kind of suite (a brought file is never one). */
async function requestDeclarations(suite: SuiteLocation): Promise<readonly RequestDeclaration[] | undefined> {
  if (isBroughtEntry(suite.entry)) return undefined;
  let definition: unknown;
  try {
    definition = ((await importUserModule(suite.entry)) as { default?: unknown }).default;
  } catch (error) {
    throw suiteLoadError(suite, error);
  }
  // Whether it is a suite at all is the listing's to say (loadSuite), after this.
  const declarations = isSuiteDefinition(definition) ? (definition as Partial<RequestSuite>).declarations : undefined;
  return Array.isArray(declarations) ? declarations : undefined;
}

/** The pins as the arm wrote them, when each names one version (no x-range, no folder): what it would install. */
function asWritten(pins: readonly Pin[]): ArmPackages | undefined {
  if (!pins.every((pin) => pin.path === undefined && pin.version !== undefined && !X_RANGE.test(pin.version))) return undefined;
  return Object.fromEntries(pins.map((pin) => [pin.name, pin.version!]));
}

/**
 * The versions an arm pins of the packages its suite installs, each checked
 * against the registry (an x-range: its newest release); a path is refused,
 * as a declaration installs from npm.
 */
async function installedVersions(spec: VariantSpec, pins: readonly Pin[], versionsOf: VersionsOf): Promise<ArmPackages> {
  const out: Record<string, string> = {};
  for (const pin of pins) {
    if (pin.path !== undefined) throw new UsageError(`${spec.id}: ${pin.name} is installed by the suite itself, from npm: pin a version (${pin.name}@<version>), not a folder`);
    out[pin.name] = await setVersion(spec, pin, [], versionsOf);
  }
  return out;
}

/**
 * Every declaration's preparation for an arm's packages (installed, built),
 * and what they installed, for its record. A failure is one line: the arm's
 * when it pins them, else the suite's; an app's failed build goes on as it
 * is (AppBuildFailed), for the arms it costs.
 */
async function prepareArm(suite: SuiteLocation, declarations: readonly RequestDeclaration[], spec: VariantSpec, packages: ArmPackages, serves: readonly Served[]): Promise<PinnedPackage[]> {
  const installed: InstalledPackage[] = [];
  try {
    for (const d of declarations) installed.push(...((await d.prepare?.(packages, serves)) ?? []));
  } catch (error) {
    if (isAppBuildFailure(error)) throw error;
    if (!Object.keys(packages).length) throw suiteLoadError(suite, error);
    throw new UsageError(`${spec.id}: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`);
  }
  return installedRecord(installed);
}

/**
 * An arm prepared with what every arm sharing its packages serves (one
 * build for all of them); when an app's build failed, again with what its
 * own runtime serves alone (what was built is kept: only the failed
 * edition's arms lose). The failed build's line, when its own failed too.
 */
async function prepareOrBuildFailure(
  suite: SuiteLocation,
  declarations: readonly RequestDeclaration[],
  v: ResolvedVariant,
  packages: ArmPackages,
  shared: readonly Served[],
): Promise<PinnedPackage[] | { buildFailed: string }> {
  if (shared.length > 1) {
    try {
      return await prepareArm(suite, declarations, v.spec, packages, shared);
    } catch (error) {
      if (!isAppBuildFailure(error)) throw error;
    }
  }
  try {
    return await prepareArm(suite, declarations, v.spec, packages, [servedBy(v.plugin.programs)]);
  } catch (error) {
    if (!isAppBuildFailure(error)) throw error;
    return { buildFailed: error.message.split('\n')[0]! };
  }
}

/**
 * How the plan bundles the suite to list the packages it imports: a bundle
 * the run then takes (the command gives measurers' suite-code.ts for
 * `ahead`), or, when no arm's bundle can tell, one made for the list alone.
 * A port, so a test counts the bundles.
 */
export interface PinsBundler {
  ahead(suite: SuiteLocation, plugin: ResolvedVariant['plugin'], arm: ArmBuild): Promise<BundledPackage[]>;
  alone(suite: SuiteLocation, plugin: ResolvedVariant['plugin']): Promise<BundledPackage[]>;
}

/** Bundles made for the list alone, which no run takes. */
export const listBundler: PinsBundler = {
  ahead: async (suite, plugin, arm) => (await bundleSuite(suite.entry, suite.name, plugin.name, plugin.bundle, arm)).packages,
  alone: async (suite, plugin) => (await bundleSuite(suite.entry, suite.name, plugin.name, plugin.bundle)).packages,
};

/** A package's own folder (its real path) as Node finds `name` from `from`: node_modules up the tree. */
function packageFolder(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', name, 'package.json'))) return realpathSync(join(dir, 'node_modules', name));
    if (dirname(dir) === dir) return undefined;
  }
}

/** The names a package's manifest declares it needs: what it may import. */
function declaredNames(dir: string): string[] {
  const manifest = manifestOf(dir);
  return Object.keys({ ...manifest?.dependencies, ...manifest?.optionalDependencies, ...manifest?.peerDependencies });
}

/**
 * The folder the suite's side finds a package from: the suite's own, or,
 * when the suite reaches it only through a package it imports (cold-start's
 * `diff`, a dependency of a workspace package), the folder of the nearest
 * package that declares it (breadth-first from the suite's, by declared
 * dependencies). A guess: the pinned bundle then shows each importer on its
 * own side finding the copy found from here, or the list is not taken.
 */
function finderOf(name: string, from: string): string | undefined {
  if (packageFolder(name, from)) return from;
  const queue = visiblePackages(from).map((p) => p.dir);
  const queued = new Set(queue);
  for (const dir of queue) {
    const names = declaredNames(dir);
    if (names.includes(name) && packageFolder(name, dir)) return dir;
    for (const dep of names) {
      const found = packageFolder(dep, dir);
      if (!found || queued.has(found)) continue;
      queue.push(found);
      queued.add(found);
    }
  }
  return undefined;
}

/** A package as its folder says: what a bundle's list holds of it, without its files. */
function packageAt(name: string, dir: string): BundledPackage {
  return { name, dir, version: String(manifestOf(dir)?.version ?? ''), files: [] };
}

/** The packages the suite's folder sees (node_modules up the tree, the nearest of a name): the ones it may import directly. */
function visiblePackages(from: string): BundledPackage[] {
  const out = new Map<string, BundledPackage>();
  for (let dir = from; ; dir = dirname(dir)) {
    const modules = join(dir, 'node_modules');
    let names: string[] = [];
    try {
      names = readdirSync(modules).flatMap((e) => (e.startsWith('.') ? [] : e.startsWith('@') ? readdirSync(join(modules, e)).map((n) => `${e}/${n}`) : [e]));
    } catch {
      // no node_modules here
    }
    for (const name of names) if (!out.has(name) && existsSync(join(modules, name, 'package.json'))) out.set(name, packageAt(name, realpathSync(join(modules, name))));
    if (dirname(dir) === dir) return [...out.values()];
  }
}

/**
 * Whether an arm's bundle is the one an arm leaving NODE_ENV unset gets: it
 * sets none, or the value an unset one is given (the same code is written
 * in). Its bundle, made under its own NODE_ENV so the run takes it, then
 * lists the unpinned packages.
 */
function bundlesAsUnset(spec: VariantSpec): boolean {
  return spec.env.NODE_ENV === undefined || spec.env.NODE_ENV === DEFAULT_NODE_ENV;
}

/**
 * The packages the suite imports, read from the first pinning arm's own
 * bundle, which the run then takes: when every arm pins, no bundle of the
 * suite unpinned is run, and making one for the list alone would be a
 * second bundle of the same code. Its pins are resolved first against the
 * packages seen where the suite's side finds them (finderOf: a pin's
 * followers need the list), then the bundle says what the unpinned bundle
 * would hold: the packages its own
 * side imports (what is reached without passing through a pinned package,
 * bundled-packages.ts), and each pinned package's own copy, as Node finds it
 * from each importer. What only the suite's own copies of the pinned
 * packages would import is not in that bundle: their declared dependencies
 * stand for it, and when one of them could change a result (it moves with
 * a pinned package) the list is not taken from this bundle. undefined
 * whenever the list cannot be proven the unpinned one (the caller bundles
 * for the list alone): the result is the same either way. A guess that
 * missed a package moving with a pin is still right: the list has it, the
 * arm's pins then differ from its bundle's, and the run bundles it anew.
 */
async function packagesFromPinnedBundle(suite: SuiteLocation, first: ResolvedVariant, pinnedByAny: ReadonlySet<string>, installs: ReadonlySet<string>, versionsOf: VersionsOf, bundler: PinsBundler): Promise<BundledPackage[] | undefined> {
  // The unpinned list is bundled as with NODE_ENV unset on the first pinning arm's runtime: this arm's list, when its bundle is that, or none.
  if (!bundlesAsUnset(first.spec)) return undefined;
  const from = dirname(resolve(suite.entry));
  const spec = { ...first.spec, packages: splitPins(first.spec, installs).bundled };
  const own = new Map<string, BundledPackage>();
  const finders = new Set<string>();
  for (const pin of spec.packages) {
    const finder = finderOf(pin.name, from);
    if (finder === undefined) return undefined;
    finders.add(finder);
    own.set(pin.name, packageAt(pin.name, packageFolder(pin.name, finder)!));
  }
  // A pin's followers are guessed among what its finder sees (the first finder's copy of a name), as the pin itself is found.
  const seen = new Map<string, BundledPackage>();
  for (const p of [...finders].flatMap(visiblePackages)) if (!seen.has(p.name)) seen.set(p.name, p);
  const guessed = new Map(own);
  for (const p of seen.values()) if (!own.has(p.name) && [...own.values()].some((o) => followersOf(o, [p], new Set()).length)) guessed.set(p.name, p);
  let pinned: PinnedPackage[];
  let bundled: BundledPackage[];
  try {
    pinned = await resolvePins(suite.name, [...guessed.values()], spec, installs, versionsOf);
    bundled = await bundler.ahead(suite, first.plugin, { nodeEnv: first.spec.env.NODE_ENV, packages: pinned.map((p) => ({ name: p.name, dir: p.dir })) });
  } catch {
    // Said as before from the list alone: a bad pin, or a bundle a pinned version breaks (the run's to report).
    return undefined;
  }
  const pinnedNames = new Set(pinned.map((p) => p.name));
  const list = new Map<string, BundledPackage>();
  for (const p of bundled) {
    const importers = p.importedFrom ?? [];
    if (!pinnedNames.has(p.name)) {
      if (importers.length) list.set(p.name, { name: p.name, dir: p.dir, version: p.version, files: p.files });
      continue;
    }
    const ownCopy = guessed.get(p.name)!;
    // Imported by the suite's side, each importer finding the copy guessed: the unpinned bundle holds that copy.
    if (!importers.length || importers.some((dir) => packageFolder(p.name, dir) !== ownCopy.dir)) return undefined;
    list.set(p.name, ownCopy);
  }
  if ([...pinnedNames].some((name) => !list.has(name))) return undefined;
  if ([...pinnedByAny].some((name) => !list.has(name))) return undefined;
  if (!ownCopiesAddNothing(pinnedNames, list, pinnedByAny)) return undefined;
  return [...list.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
}

/**
 * Whether the packages only the suite's own copies of the pinned packages
 * would bring (their declared dependencies, transitively, that the list
 * lacks) leave every pin's result as it is: none declares a package an arm
 * pins a peer at that package's version (every pinned name is in the list
 * already, checked before).
 */
function ownCopiesAddNothing(pinnedNames: ReadonlySet<string>, list: ReadonlyMap<string, BundledPackage>, pinnedByAny: ReadonlySet<string>): boolean {
  const queue = [...pinnedNames].map((name) => list.get(name)!);
  const seen = new Set(queue.map((p) => p.dir));
  while (queue.length) {
    const pkg = queue.pop()!;
    for (const name of declaredNames(pkg.dir)) {
      if (list.has(name)) continue;
      const dir = packageFolder(name, pkg.dir);
      if (!dir || seen.has(dir)) continue;
      seen.add(dir);
      const found = packageAt(name, dir);
      if ([...pinnedByAny].some((p) => list.get(p)?.version === found.version && manifestOf(dir)?.peerDependencies?.[p] !== undefined)) return false;
      queue.push(found);
    }
  }
  return true;
}

/**
 * Resolves the pins of every variant that can run into its record
 * (`record.packages`), against the packages the suite's bundle holds: the
 * packages a suite imports are the same on every runtime, only their files
 * differ. The bundle read is one the run then runs: an arm that pins
 * nothing and bundles as one leaving NODE_ENV unset (the suite's own packages) takes it
 * (suite-code.ts); when every arm pins, the first pinning arm's own bundle
 * (packagesFromPinnedBundle). Only when neither can tell (a request suite,
 * whose run serves its handlers, or a list that bundle cannot prove) is
 * the suite bundled unpinned for the list alone. Returns the arms whose
 * app build failed (unavailable, kind `build`, with its line): the plan
 * keeps them as failed arms, the others run.
 */
export async function pinPackages(
  suite: SuiteLocation,
  variants: readonly (ResolvedVariant | UnavailableVariant)[],
  versionsOf: VersionsOf = npmVersions,
  bundler: PinsBundler = listBundler,
): Promise<UnavailableVariant[]> {
  const declarations = await requestDeclarations(suite);
  const installs = new Set((declarations ?? []).flatMap((d) => d.installs ?? []));
  const ready = variants.filter(isResolved);
  const bundledPins = ready.filter((v) => splitPins(v.spec, installs).bundled.length);
  let imported: BundledPackage[] = [];
  if (bundledPins.length) {
    const plain = ready.find((v) => !v.spec.packages?.length && bundlesAsUnset(v.spec));
    const pinnedByAny = new Set(bundledPins.flatMap((v) => splitPins(v.spec, installs).bundled.map((p) => p.name)));
    imported =
      (declarations
        ? undefined
        : plain
          ? await bundler.ahead(suite, plain.plugin, { nodeEnv: plain.spec.env.NODE_ENV, packages: [] })
          : await packagesFromPinnedBundle(suite, bundledPins[0]!, pinnedByAny, installs, versionsOf, bundler)) ??
      // A request suite's run never takes the suite's bundle (it serves its handlers): bundled for the list alone, not kept.
      (await bundler.alone(suite, (plain ?? bundledPins[0]!).plugin));
  }
  const preparing = (declarations ?? []).filter((d) => d.prepare);
  // Every arm's versions found and checked first: a version npm lacks, or one the suite refuses, installs and builds nothing for any arm.
  const resolved: { v: ResolvedVariant; pinned: PinnedPackage[]; packages: ArmPackages }[] = [];
  const refuse = (spec: VariantSpec, packages: ArmPackages): void => {
    const refused = (declarations ?? []).map((d) => d.refusePackages?.(packages)).find((why) => why !== undefined);
    if (refused !== undefined) throw new UsageError(`${spec.id}: ${refused}`);
  };
  for (const v of ready) {
    const { installed, bundled } = splitPins(v.spec, installs);
    // Versions pinned exactly are what the arm installs: one the suite refuses is refused before npm is asked whether it exists.
    const exact = asWritten(installed);
    if (exact && installed.length) refuse(v.spec, exact);
    const pinned = bundled.length ? await resolvePins(suite.name, imported, { ...v.spec, packages: bundled }, installs, versionsOf) : [];
    const packages = await installedVersions(v.spec, installed, versionsOf);
    refuse(v.spec, packages);
    resolved.push({ v, pinned, packages });
  }
  // What the runtimes of every arm with the same packages serve: one preparation then does the work for all of them.
  const servesOf = new Map<string, Set<Served>>();
  const packagesKey = (packages: ArmPackages): string => JSON.stringify(Object.entries(packages).sort());
  for (const { v, packages } of resolved) {
    const key = packagesKey(packages);
    servesOf.set(key, (servesOf.get(key) ?? new Set<Served>()).add(servedBy(v.plugin.programs)));
  }
  const buildFailed: UnavailableVariant[] = [];
  for (const { v, pinned, packages } of resolved) {
    const prepared = preparing.length ? await prepareOrBuildFailure(suite, preparing, v, packages, [...servesOf.get(packagesKey(packages))!]) : [];
    if ('buildFailed' in prepared) buildFailed.push({ spec: v.spec, plugin: v.plugin, reason: prepared.buildFailed, kind: 'build' });
    else if (pinned.length || prepared.length || v.spec.packages?.length) v.record.packages = [...pinned, ...prepared];
  }
  return buildFailed;
}
