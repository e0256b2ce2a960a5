/**
 * Stacks from a runtime process point into the bundle (its path, or the
 * module name the runtime's plug-in declares: RuntimeFrames.bundleModule), where a user's line 5 is line 804. The bundle's
 * source map (beside it, or inline: host source-map-file.ts) maps each frame back to the file the
 * user wrote, on the host, the same way for every runtime, and names the
 * first frame outside rtbench's own code so a failure says where it happened.
 * Node's own `SourceMap` (node:module) reads the map: no dependency.
 */
import { SourceMap } from 'node:module';
import { basename, dirname, isAbsolute, relative, resolve } from 'node:path';
import { readBundleMap } from '@rtbench/host/programs';

/**
 * The words of a stack (runs of characters that are not space or brackets):
 * a frame's location is one of them. Each character is read once, so a stack
 * whose message is 64 KB of one letter costs 64 KB of reading, not its square
 * (a pattern that searched for `path:line:column` anywhere backtracked over
 * every start).
 */
const WORD = /[^\s()]+/g;

/** `path:line:column` (path with or without `file://`) split from its end, or undefined: linear in the word. */
export function frameLocation(word: string): { path: string; line: string; column: string } | undefined {
  const lastColon = word.lastIndexOf(':');
  const lineColon = lastColon > 0 ? word.lastIndexOf(':', lastColon - 1) : -1;
  if (lineColon <= 0) return undefined;
  const line = word.slice(lineColon + 1, lastColon);
  const column = word.slice(lastColon + 1);
  if (!DIGITS.test(line) || !DIGITS.test(column)) return undefined;
  return { path: word.slice(0, lineColon), line, column };
}
const DIGITS = /^\d{1,9}$/;
/** Sources that are rtbench's own (the harness, the adapters, the generated entries). */
const OWN_SOURCE = /^(packages|runners)\/|^\.rtbench-cache\/|^rtbench-[\w-]+-entry\.ts$/;

interface BundleMap {
  map: SourceMap;
  /** The bundle's lines, to read which identifiers a mapped line holds. */
  lines: string[];
  /** Where the map's sources are relative to (the bundler's working directory, written as sourceRoot). */
  root: string;
}

const maps = new Map<string, BundleMap | undefined>();

function mapOf(bundlePath: string): BundleMap | undefined {
  if (!maps.has(bundlePath)) {
    const read = readBundleMap(bundlePath);
    maps.set(bundlePath, read && { map: new SourceMap(read.map), lines: read.text.split('\n'), root: read.map.sourceRoot || dirname(bundlePath) });
  }
  return maps.get(bundlePath);
}

/** A path as a user reads it: relative to where they ran rtbench if inside it, else absolute. */
function displayPath(full: string): string {
  const here = relative(process.cwd(), full);
  return here.startsWith('..') || isAbsolute(here) ? full : here;
}

export interface MappedStack {
  stack: string;
  /** The first frame in a file the user wrote: `path:line:column`. */
  where?: string;
  /**
   * Identifiers the bundler renamed on the mapped lines (`bench3` → `bench`,
   * when two modules both declare `bench`): error messages quote the code as
   * it ran, and read better with the names the user wrote.
   */
  renames: Map<string, string>;
}

/** Replaces renamed identifiers, as whole words, by the names the user wrote. */
export function unrename(text: string, renames: ReadonlyMap<string, string>): string {
  if (renames.size === 0) return text;
  return text.replace(/[A-Za-z_$][\w$]*/g, (word) => renames.get(word) ?? word);
}

/** Identifiers on one generated line whose source name differs (the map's `names`). */
function renamesOn(found: BundleMap, line: number, into: Map<string, string>): void {
  const text = found.lines[line];
  if (text === undefined || text.length > 2000) return;
  for (const token of text.matchAll(/[A-Za-z_$][\w$]*/g)) {
    const entry = found.map.findEntry(line, token.index) as { name?: string; generatedColumn?: number };
    if (entry.name && entry.generatedColumn === token.index && entry.name !== token[0]) into.set(token[0], entry.name);
  }
}

/** Maps the frames of `stack` that point into the bundle at `bundlePath` back to their sources. */
export function mapStack(stack: string, bundlePath: string, bundleModule?: string): MappedStack {
  const renames = new Map<string, string>();
  const found = mapOf(bundlePath);
  if (!found) return { stack, renames };
  const { map, root } = found;
  const bundleName = basename(bundlePath);
  let where: string | undefined;
  const mapped = stack.replace(WORD, (whole) => {
    const location = frameLocation(whole);
    if (!location) return whole;
    const { path, line, column } = location;
    const plain = path.replace(/^file:\/\//, '');
    const name = basename(plain);
    if (name !== bundleName && name !== bundleModule) {
      // A frame the runtime mapped itself (deno, from a program's inline map): still the first user frame, if it is one.
      if (where === undefined && isAbsolute(plain) && !OWN_SOURCE.test(relative(root, plain).replaceAll('\\', '/'))) where = `${displayPath(plain)}:${line}:${column}`;
      return whole;
    }
    const entry = map.findEntry(Number(line) - 1, Number(column) - 1) as { originalSource?: string; originalLine?: number; originalColumn?: number };
    if (entry.originalSource === undefined || entry.originalLine === undefined) return whole;
    renamesOn(found, Number(line) - 1, renames);
    const full = resolve(root, entry.originalSource.replace(/^file:\/\//, ''));
    const at = `${displayPath(full)}:${entry.originalLine + 1}:${(entry.originalColumn ?? 0) + 1}`;
    if (where === undefined && !OWN_SOURCE.test(relative(root, full).replaceAll('\\', '/'))) where = at;
    return at;
  });
  // The runtime mapped the stack itself (deno, an inline map), so no bundle line was read: take the renames of the whole bundle.
  if (where !== undefined && renames.size === 0) for (let line = 0; line < found.lines.length; line++) renamesOn(found, line, renames);
  return { stack: unrename(mapped, renames), renames, ...(where ? { where } : {}) };
}
