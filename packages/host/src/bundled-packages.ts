/**
 * The npm packages a bundle holds, read from esbuild's metafile: each
 * package's folder, version and the files of it the bundle took. What a
 * suite imports (an arm may pin only those), and who reads NODE_ENV
 * (node-env.ts). In a bundle with pinned packages, also which folders of
 * the bundle's own side (what is reached without passing through a pinned
 * package) import each package: what the pinned build tells of the suite's
 * unpinned graph (package-pins.ts lists the suite's imports from it).
 */
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import type { Metafile } from 'esbuild';

export interface BundledPackage {
  name: string;
  /** The package's folder (its package.json), as the bundle found it. */
  dir: string;
  version: string;
  /** Its files in the bundle, absolute. */
  files: string[];
  /**
   * In a bundle with pinned packages: the folders of the files that import
   * it and are reached from the bundle's entries without passing through a
   * pinned package's files; empty when only pinned packages reach it.
   */
  importedFrom?: string[];
}

const NODE_MODULES = `${sep}node_modules${sep}`;
const PLUGIN_MODULE = /^[\w-]+:/;

/** The package a file belongs to: one of `linked` (a local build, by its real folder), or the one under the last node_modules of its path. */
function ownerOf(file: string, linked: readonly { name: string; dir: string }[]): { name: string; dir: string } | undefined {
  const local = linked.find((p) => file.startsWith(`${p.dir}${sep}`));
  if (local) return local;
  const at = file.lastIndexOf(NODE_MODULES);
  if (at === -1) return undefined;
  const parts = file.slice(at + NODE_MODULES.length).split(sep);
  const name = parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  return { name, dir: file.slice(0, at + NODE_MODULES.length) + name.split('/').join(sep) };
}

const realDir = (dir: string): string => {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
};

/**
 * The packages of a bundle's inputs (paths relative to `workingDir`), by
 * name, sorted; `linked`: packages in folders of their own, the pinned ones
 * (with them, each package says who on the bundle's own side imports it).
 */
export function bundledPackages(metafile: Metafile, workingDir: string, linked: readonly { name: string; dir: string }[] = []): BundledPackage[] {
  const found = new Map<string, BundledPackage>();
  const local = linked.map((p) => ({ name: p.name, dir: realDir(p.dir) }));
  const owners = new Map<string, { name: string; dir: string } | undefined>();
  for (const input of Object.keys(metafile.inputs)) {
    const file = resolve(workingDir, input);
    // A plugin's module (`namespace:path`) is not a file of a package, whatever its path names.
    const owner = PLUGIN_MODULE.test(input) ? undefined : ownerOf(file, local);
    owners.set(input, owner);
    if (!owner) continue;
    const { name } = owner;
    let pkg = found.get(name);
    if (!pkg) {
      const dir = owner.dir;
      let version = '';
      try {
        version = String((JSON.parse(readFileSync(`${dir}${sep}package.json`, 'utf8')) as { version?: unknown }).version ?? '');
      } catch {
        // a package without a readable package.json: named, versionless
      }
      found.set(name, (pkg = { name, dir, version, files: [] }));
    }
    pkg.files.push(file);
  }
  if (local.length) {
    const pinned = new Set(local.map((p) => p.name));
    const importers = ownSideImporters(metafile, (input) => pinned.has(owners.get(input)?.name ?? ''), owners);
    for (const pkg of found.values()) pkg.importedFrom = [...(importers.get(pkg.name) ?? [])].map((input) => dirname(resolve(workingDir, input))).filter((d, i, all) => all.indexOf(d) === i).sort();
  }
  return [...found.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
}

/**
 * Per package, the inputs that import it from another package or from no
 * package, reached from the bundle's entries (the inputs nothing imports)
 * without passing through a pinned package's inputs.
 */
function ownSideImporters(metafile: Metafile, isPinned: (input: string) => boolean, owners: ReadonlyMap<string, { name: string } | undefined>): Map<string, Set<string>> {
  const { inputs } = metafile;
  const imported = new Set(Object.values(inputs).flatMap((i) => i.imports.map((edge) => edge.path)));
  const seen = new Set<string>();
  const queue = Object.keys(inputs).filter((input) => !imported.has(input) && !isPinned(input));
  const out = new Map<string, Set<string>>();
  while (queue.length) {
    const input = queue.pop()!;
    if (seen.has(input)) continue;
    seen.add(input);
    for (const { path } of inputs[input]?.imports ?? []) {
      if (!(path in inputs)) continue;
      const to = owners.get(path)?.name;
      if (to !== undefined && to !== owners.get(input)?.name) {
        const set = out.get(to) ?? new Set<string>();
        set.add(input);
        out.set(to, set);
      }
      if (!isPinned(path)) queue.push(path);
    }
  }
  return out;
}
