/**
 * Profile frames point into the bundle (its path as a file: URL, or the
 * module name the runtime's plug-in declares: RuntimeFrames.bundleModule),
 * where a suite's line 5 is line 804. The bundle's source map (beside it, or
 * inline: host source-map-file.ts; packages/suite-loader/src/bundle.ts writes
 * sources relative to the repository, with sourceRoot) maps a frame's
 * function start back to the file that was written, with node's own
 * `SourceMap` (node:module), as packages/measurers/src/stack-map.ts does for
 * error stacks. No dependency.
 */
import { SourceMap } from 'node:module';
import { basename, dirname, isAbsolute, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readBundleMap } from '@rtbench/host/programs';
import type { FrameLocation, FrameLocator } from './cpuprofile.ts';

export type { FrameLocation, FrameLocator };

interface LoadedMap {
  map: SourceMap;
  root: string;
}

function loadMap(bundlePath: string): LoadedMap | undefined {
  const read = readBundleMap(bundlePath);
  return read && { map: new SourceMap(read.map), root: read.map.sourceRoot || dirname(bundlePath) };
}

function pathOfUrl(url: string): string | undefined {
  if (url.startsWith('file://')) {
    try {
      return fileURLToPath(url);
    } catch {
      return undefined;
    }
  }
  return isAbsolute(url) ? url : undefined;
}

/** A locator for frames of a profile taken on `bundlePath` (named `bundleModule` by the runtime, when it does not give the path); without a bundle (or its map), frames keep their URLs. */
export function bundleLocator(bundlePath: string | undefined, bundleModule?: string): FrameLocator {
  const loaded = bundlePath ? loadMap(bundlePath) : undefined;
  const bundleName = bundlePath ? basename(bundlePath) : undefined;
  const cache = new Map<string, FrameLocation | undefined>();
  return (frame) => {
    const key = `${frame.url}\u0000${frame.lineNumber}\u0000${frame.columnNumber}`;
    if (cache.has(key)) return cache.get(key);
    let found: FrameLocation | undefined;
    if (frame.url) {
      const path = pathOfUrl(frame.url);
      const name = basename(path ?? frame.url);
      const inBundle = (bundleName !== undefined && name === bundleName) || (bundleModule !== undefined && (frame.url === bundleModule || frame.url.endsWith(`/${bundleModule}`)));
      const line = frame.lineNumber + 1;
      const column = frame.columnNumber + 1;
      if (inBundle && loaded && frame.lineNumber >= 0) {
        const entry = loaded.map.findEntry(frame.lineNumber, Math.max(0, frame.columnNumber)) as { originalSource?: string; originalLine?: number; originalColumn?: number };
        if (entry.originalSource !== undefined && entry.originalLine !== undefined) {
          const full = resolve(loaded.root, entry.originalSource.replace(/^file:\/\//, ''));
          const rel = relative(loaded.root, full).replaceAll('\\', '/');
          found = { source: rel.startsWith('..') || isAbsolute(rel) ? full : rel, line: entry.originalLine + 1, column: (entry.originalColumn ?? 0) + 1, inBundle };
        }
      }
      if (!found) {
        // A file outside the bundle (deno maps some itself; a runtime's own file), or a bundle without a map.
        const rel = path && loaded ? relative(loaded.root, path).replaceAll('\\', '/') : undefined;
        const source = inBundle ? (bundleName ?? frame.url) : rel !== undefined && !rel.startsWith('..') && !isAbsolute(rel) ? rel : frame.url;
        found = { source, line, column, inBundle };
      }
    }
    cache.set(key, found);
    return found;
  };
}
