/**
 * The packages' import graph as floors: each package (packages/<name>), and
 * runners/, bench/ and scripts/ each as one, stands a floor above the
 * highest it imports, so the floors are the longest chain of imports. Tests
 * and fixtures are left out. Read by scripts/checks/structure-targets.ts, which
 * holds the house to MOST_FLOORS and to no circle, and the folders of report
 * and the CLI to no circle between them (an arrow back up).
 * A check run in `pnpm test`: test/structure-targets.test.ts runs it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { moduleSpecifiers } from './source-syntax.ts';

/** The most floors the house may stand on. */
export const MOST_FLOORS = 10;

/** The tops whose sources make the rooms: a package each, and these three as one room each. */
const WHOLE_ROOMS = ['runners', 'bench', 'scripts'];

/** Source files under `dir`, tests, fixtures and installed packages left out. */
function codeFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (['node_modules', 'test', 'fixtures'].includes(name) || name.startsWith('.')) return [];
    if (statSync(path).isDirectory()) return codeFiles(path);
    return /\.(ts|mts|tsx|mjs|js)$/.test(name) && !/\.(d|test)\.ts$/.test(name) ? [path] : [];
  });
}

/** The room a path of the tree is in, or undefined (a root file, a test). */
function roomOf(root: string, path: string): string | undefined {
  const [top, name] = relative(root, path).split(/[\\/]/);
  if (top === 'packages' && name) return `packages/${name}`;
  return top !== undefined && WHOLE_ROOMS.includes(top) ? top : undefined;
}

/** The room a module specifier names: a workspace package by its name, or a relative path's. */
function importedRoom(root: string, file: string, spec: string, byName: ReadonlyMap<string, string>): string | undefined {
  if (spec.startsWith('.')) return roomOf(root, resolve(dirname(file), spec));
  const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
  return byName.get(name);
}

/** Every workspace package's name, to the room it is in (rtbench, @rtbench/core, @rtbench/runtime-node, @rtbench/bench-trig, …). */
function packageNames(root: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const top of ['packages', 'runners', 'bench']) {
    for (const dir of existsSync(join(root, top)) ? readdirSync(join(root, top)) : []) {
      const manifest = join(root, top, dir, 'package.json');
      if (!existsSync(manifest)) continue;
      const { name } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string };
      if (name) names.set(name, roomOf(root, join(root, top, dir))!);
    }
  }
  return names;
}

/** Which rooms each room imports. */
export function roomGraph(root: string): Map<string, Set<string>> {
  const byName = packageNames(root);
  const graph = new Map<string, Set<string>>();
  const tops = [...readdirSync(join(root, 'packages')).map((p) => join('packages', p)), ...WHOLE_ROOMS];
  for (const file of tops.flatMap((top) => codeFiles(join(root, top)))) {
    const from = roomOf(root, file)!;
    const to = graph.get(from) ?? new Set<string>();
    graph.set(from, to);
    for (const spec of moduleSpecifiers(file)) {
      const room = importedRoom(root, file, spec, byName);
      if (room !== undefined && room !== from) to.add(room);
    }
  }
  return graph;
}

/**
 * Which rooms import which inside one folder (`packages/report/src`): each
 * entry of it a room, a file beside a folder of its name (plan.ts, plan/)
 * one room with it, imports by relative path only.
 */
export function folderGraph(root: string, folder: string): Map<string, Set<string>> {
  const dir = join(root, folder);
  const roomIn = (path: string): string | undefined => {
    const inside = relative(dir, path);
    return inside.startsWith('..') ? undefined : inside.split(/[\\/]/)[0]!.replace(/\.(ts|mts|tsx|mjs|js)$/, '');
  };
  const graph = new Map<string, Set<string>>();
  for (const file of codeFiles(dir)) {
    const from = roomIn(file)!;
    const to = graph.get(from) ?? new Set<string>();
    graph.set(from, to);
    for (const spec of moduleSpecifiers(file).filter((s) => s.startsWith('.'))) {
      const room = roomIn(resolve(dirname(file), spec));
      if (room !== undefined && room !== from) to.add(room);
    }
  }
  return graph;
}

/** The floors a graph stands on, the longest chain (ground first), and the rooms on a circle (each circle once, by its rooms). */
export function floorsOf(graph: ReadonlyMap<string, ReadonlySet<string>>): { floors: number; chain: string[]; circles: string[][] } {
  const below = new Map<string, string[]>();
  const circles: string[][] = [];
  const walking: string[] = [];
  const chainOf = (room: string): string[] => {
    const known = below.get(room);
    if (known) return known;
    const at = walking.indexOf(room);
    if (at >= 0) {
      circles.push(walking.slice(at));
      return [];
    }
    walking.push(room);
    let longest: string[] = [];
    for (const next of graph.get(room) ?? []) {
      const chain = chainOf(next);
      if (chain.length > longest.length) longest = chain;
    }
    walking.pop();
    const chain = [...longest, room];
    below.set(room, chain);
    return chain;
  };
  const chain = [...graph.keys()].map(chainOf).reduce((a, b) => (b.length > a.length ? b : a), []);
  return { floors: chain.length, chain, circles };
}
