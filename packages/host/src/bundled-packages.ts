/**
 * The npm packages a bundle holds, read from esbuild's metafile: each
 * package's folder, version and the files of it the bundle took. What a
 * suite imports (an arm may pin only those), and who reads NODE_ENV
 * (node-env.ts).
 */
import { readFileSync, realpathSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import type { Metafile } from 'esbuild';

export interface BundledPackage {
  name: string;
  /** The package's folder (its package.json), as the bundle found it. */
  dir: string;
  version: string;
  /** Its files in the bundle, absolute. */
  files: string[];
}

const NODE_MODULES = `${sep}node_modules${sep}`;

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

/** The packages of a bundle's inputs (paths relative to `workingDir`), by name, sorted; `linked`: packages in folders of their own. */
export function bundledPackages(metafile: Metafile, workingDir: string, linked: readonly { name: string; dir: string }[] = []): BundledPackage[] {
  const found = new Map<string, BundledPackage>();
  const local = linked.map((p) => ({ name: p.name, dir: realDir(p.dir) }));
  for (const input of Object.keys(metafile.inputs)) {
    const file = resolve(workingDir, input);
    const owner = ownerOf(file, local);
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
  return [...found.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
}
