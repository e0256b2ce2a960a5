/**
 * Profile frames point into the bundle (its path as a file: URL, or the
 * module name the runtime's plug-in declares: RuntimeFrames.bundleModule),
 * where a suite's line 5 is line 804. The
 * bundle carries an inline source map (packages/suite-loader/src/bundle.ts writes
 * sources relative to the repository, with sourceRoot); this maps a frame's
 * function start back to the file that was written, with node's own
 * `SourceMap` (node:module), as packages/measurers/src/stack-map.ts does for
 * error stacks. No dependency.
 */
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { basename, dirname, isAbsolute, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FrameLocation, FrameLocator } from './cpuprofile.ts';

export type { FrameLocation, FrameLocator };

const INLINE_MAP = /\/\/# sourceMappingURL=data:application\/json;base64,([A-Za-z0-9+/=]+)\s*$/;


interface LoadedMap {
  map: SourceMap;
  root: string;
}

function loadMap(bundlePath: string): LoadedMap | undefined {
  try {
    const text = readFileSync(bundlePath, 'utf8');
    const m = INLINE_MAP.exec(text.slice(-Math.min(text.length, 8 * 1024 * 1024)));
    if (!m) return undefined;
    const payload = JSON.parse(Buffer.from(m[1]!, 'base64').toString('utf8')) as ConstructorParameters<typeof SourceMap>[0] & { sourceRoot?: string };
    return { map: new SourceMap(payload), root: payload.sourceRoot || dirname(bundlePath) };
  } catch {
    return undefined;
  }
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
