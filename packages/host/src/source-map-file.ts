/**
 * A suite bundle's source map, kept in a file beside the bundle
 * (`<bundle>.map`) instead of inline: deno decodes and parses an inline map
 * on every start (about 46 M instructions for json-reviver's, whose map is
 * four times its code), and reads a linked one (`//# sourceMappingURL=` a
 * file) on every start too; with no comment no runtime reads it, and the
 * host maps stacks and profiles itself, the same way for every runtime
 * (measurers stack-map.ts, profile source-map.ts). The readers take an
 * inline map as well: the other programs (a profiled server's) keep theirs.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { SourceMapPayload } from 'node:module';
import { keptBeside } from '@rtbench/runtime-kit/beside-bundle';
import { writeFileAtomically } from './atomic-file.ts';

const INLINE_MAP = /\n\/\/# sourceMappingURL=data:application\/json;base64,([A-Za-z0-9+/=]+)\s*$/;
const MAP = keptBeside('.map');

/** A source map as the bundler writes it (its sourceRoot may be empty: read it with a fallback). */
export type BundleSourceMap = SourceMapPayload;

/** The file a bundle's map is kept in. */
export const mapBeside = (bundlePath: string): string => MAP.pathOf(bundlePath);

/**
 * A bundle's text without its trailing inline map (and the newline before it), and the map's JSON (undefined when it
 * has none): the code bundleCodeHash (suite-loader) hashed when the map was inline, so a bundle's hash did not change
 * when its map moved beside it.
 */
export function splitInlineMap(text: string): { code: string; map?: string } {
  const found = INLINE_MAP.exec(text.slice(-Math.min(text.length, 8 * 1024 * 1024)));
  if (!found) return { code: text };
  return { code: text.slice(0, text.length - found[0].length), map: Buffer.from(found[1]!, 'base64').toString('utf8') };
}

/**
 * Writes `map` beside the bundle (owner-only, atomically, only when it
 * differs: two sources that differ in comments alone bundle to the same code,
 * and the last bundled is the one run), and removes the maps of bundles no
 * longer in the folder (the program cache removes old versions).
 */
export function storeMapBeside(bundlePath: string, map: string): void {
  const path = mapBeside(bundlePath);
  if (!existsSync(path) || readFileSync(path, 'utf8') !== map) writeFileAtomically(path, map, { mode: 0o600 });
  MAP.removeOrphans(bundlePath);
}

/** A bundle's text and its source map, inline or beside it; undefined when it has none or it cannot be read. */
export function readBundleMap(bundlePath: string): { text: string; map: BundleSourceMap } | undefined {
  try {
    const text = readFileSync(bundlePath, 'utf8');
    const inline = splitInlineMap(text).map;
    const json = inline ?? (existsSync(mapBeside(bundlePath)) ? readFileSync(mapBeside(bundlePath), 'utf8') : undefined);
    return json === undefined ? undefined : { text, map: JSON.parse(json) as BundleSourceMap };
  } catch {
    return undefined;
  }
}
