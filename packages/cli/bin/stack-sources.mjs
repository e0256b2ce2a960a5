// @ts-check
/**
 * Stack traces that name the sources, for the CLI run from its bundle
 * (rtbench.mjs): a frame in a file under the bundle's folder (its chunks,
 * and the user modules bundled there, user-modules.mjs) is given the place
 * its source map names. Node's own source maps
 * (process.setSourceMapsEnabled) read and parse every map as each module
 * is compiled, about 30 ms of CPU on every start; here a map is read when a
 * stack is first formatted with a frame in its file, which a run that
 * throws nothing never does.
 */
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** @typedef {{ map: SourceMap, base: string } | undefined} FileMap */

/**
 * @param {string} file a bundled file
 * @returns {FileMap} its source map (inline, or the file it names), and the URL its sources are relative to
 */
function readMap(file) {
  try {
    const text = readFileSync(file, 'utf8');
    const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(text)?.[1];
    if (!url) return undefined;
    const inline = /^data:application\/json;(?:charset=utf-8;)?base64,(.*)$/.exec(url);
    const mapFile = inline ? file : join(dirname(file), url);
    const payload = JSON.parse(inline ? Buffer.from(inline[1] ?? '', 'base64').toString('utf8') : readFileSync(mapFile, 'utf8'));
    const root = typeof payload.sourceRoot === 'string' && payload.sourceRoot ? `${payload.sourceRoot.replace(/\/?$/, '/')}` : '';
    return { map: new SourceMap(payload), base: new URL(root, pathToFileURL(mapFile)).href };
  } catch {
    return undefined;
  }
}

/** @param {string} dir the bundle's folder */
export function mapStacksUnder(dir) {
  const prefix = pathToFileURL(dir).href + '/';
  /** @type {Map<string, FileMap>} */
  const maps = new Map();
  /**
   * @param {NodeJS.CallSite} site
   * @returns {string} the frame as V8 writes it, at its source's place where the bundle's map has one
   */
  const frame = (site) => {
    const text = site.toString();
    const name = site.getFileName();
    const line = site.getLineNumber();
    const column = site.getColumnNumber();
    if (!name || line === null || column === null) return text;
    const url = name.startsWith('file:') ? name : pathToFileURL(name).href;
    if (!url.startsWith(prefix)) return text;
    if (!maps.has(url)) maps.set(url, readMap(fileURLToPath(url)));
    const found = maps.get(url);
    const entry = found?.map.findEntry(line - 1, column - 1);
    if (!found || !entry || !('originalSource' in entry)) return text;
    const source = new URL(entry.originalSource, found.base);
    const place = `${source.protocol === 'file:' ? fileURLToPath(source) : source.href}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
    return text.replace(`${name}:${line}:${column}`, place);
  };
  Error.prepareStackTrace = (error, sites) => {
    let head;
    try {
      head = Error.prototype.toString.call(error);
    } catch {
      head = '<error>';
    }
    return [head, ...sites.map((site) => `    at ${frame(site)}`)].join('\n');
  };
}
