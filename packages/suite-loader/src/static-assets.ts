/**
 * A wrangler project's static assets, read on the host: the `assets` table
 * checked (its directory, binding, html_handling, not_found_handling,
 * run_worker_first), the folder's files listed as wrangler uploads them (less
 * what `.assetsignore` names, and the files of the platform's own that are
 * never served), and the module that embeds them in the handler's bundle,
 * which assets-router.ts serves on every runtime that serves the Worker
 * (a framework app's: the Workers runtime alone). Every problem is one
 * UsageError line, before anything runs.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, resolve, sep } from 'node:path';
import { UsageError } from '@rtbench/core/usage-error';
import type { AssetFiles, AssetsRouting, HtmlHandling, NotFoundHandling } from './assets-router.ts';

/** What rtbench takes from the `assets` table. */
export interface StaticAssets {
  /** The folder, absolute. */
  directory: string;
  /** The name the Worker's env holds the assets binding under, if it declares one. */
  binding?: string;
  routing: AssetsRouting;
}

const HTML_HANDLING: readonly HtmlHandling[] = ['auto-trailing-slash', 'force-trailing-slash', 'drop-trailing-slash', 'none'];
const NOT_FOUND_HANDLING: readonly NotFoundHandling[] = ['none', 'single-page-application', '404-page'];
const KEYS = ['directory', 'binding', 'html_handling', 'not_found_handling', 'run_worker_first', 'experimental_serve_directly'] as const;

/** The compatibility date from which a navigation prefers the assets' not-found page to the Worker, and the flag that asks it before. */
const NAVIGATION_DATE = '2025-04-01';
const NAVIGATION_FLAG = 'assets_navigation_prefers_asset_serving';

/** The Workers platform's limits on an asset folder, which rtbench's embedding keeps too. */
const MAX_FILES = 20_000;
const MAX_FILE_BYTES = 25 * 1024 * 1024;
/** The most bytes embedded in one bundle: each runtime's process holds them. */
const MAX_TOTAL_BYTES = 64 * 1024 * 1024;

/** Files the platform reads for itself and never serves. */
const NEVER_SERVED = new Set(['.assetsignore', '_headers', '_redirects', '_worker.js', '_routes.json']);

/** The `assets` table checked, with the compatibility that decides the navigation rule. */
export function readAssetsTable(value: unknown, projectDir: string, shown: string, compatibility: { date?: string; flags: readonly string[] }): StaticAssets {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError(`${shown}: assets must be a table (directory = "./public", binding = "ASSETS", …)`);
  const table = value as Record<string, unknown>;
  const unknown = Object.keys(table).find((key) => !(KEYS as readonly string[]).includes(key));
  if (unknown) throw new UsageError(`${shown}: assets.${unknown} is not a setting of static assets rtbench knows (${KEYS.join(', ')})`);
  const { directory, binding, html_handling: html = 'auto-trailing-slash', not_found_handling: notFound = 'none' } = table;
  if (typeof directory !== 'string' || directory === '') throw new UsageError(`${shown}: assets names no directory (the folder of files it serves, e.g. directory = "./public")`);
  const dir = resolve(projectDir, directory);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`${shown}: assets.directory ${directory}: no such folder (the project's build makes it? build it first)`);
  if (binding !== undefined && (typeof binding !== 'string' || !/^[A-Za-z_$][\w$]*$/.test(binding))) throw new UsageError(`${shown}: assets.binding must be a name for the Worker's env, such as "ASSETS"`);
  if (!HTML_HANDLING.includes(html as HtmlHandling)) throw new UsageError(`${shown}: assets.html_handling ${JSON.stringify(html)} is none of ${HTML_HANDLING.join(', ')}`);
  if (!NOT_FOUND_HANDLING.includes(notFound as NotFoundHandling)) throw new UsageError(`${shown}: assets.not_found_handling ${JSON.stringify(notFound)} is none of ${NOT_FOUND_HANDLING.join(', ')}`);
  const first = table.run_worker_first ?? (table.experimental_serve_directly === false ? true : false);
  if (typeof first !== 'boolean' && !(Array.isArray(first) && first.every((r) => typeof r === 'string' && /^!?\//.test(r)))) throw new UsageError(`${shown}: assets.run_worker_first must be true, false or a list of routes ("/api/*", "!/api/docs/*")`);
  const navigationPrefersAssets = (compatibility.date !== undefined && compatibility.date >= NAVIGATION_DATE) || compatibility.flags.includes(NAVIGATION_FLAG);
  return {
    directory: dir,
    ...(typeof binding === 'string' ? { binding } : {}),
    routing: { htmlHandling: html as HtmlHandling, notFoundHandling: notFound as NotFoundHandling, runWorkerFirst: first as boolean | string[], navigationPrefersAssets },
  };
}

/** `.assetsignore`'s lines as tests of a file's path in the folder (gitignore's common forms: `*`, `**`, a leading `/`, a trailing `/`, `!`). */
function ignoreRules(dir: string): ((path: string) => boolean | undefined)[] {
  const file = join(dir, '.assetsignore');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const negated = line.startsWith('!');
      let pattern = negated ? line.slice(1) : line;
      const anchored = pattern.startsWith('/') || pattern.slice(0, -1).includes('/');
      pattern = pattern.replace(/^\//, '');
      const folder = pattern.endsWith('/');
      pattern = pattern.replace(/\/$/, '');
      const body = pattern
        .split(/(\*\*\/?|\*|\?)/)
        .map((part) => (part.startsWith('**') ? '(?:.*/)?' : part === '*' ? '[^/]*' : part === '?' ? '[^/]' : part.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
        .join('');
      const re = new RegExp(`^${anchored ? '' : '(?:.*/)?'}${body}${folder ? '/' : '(?:/|$)'}`);
      return (path: string) => (re.test(path) ? !negated : undefined);
    });
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html', '.htm': 'text/html', '.css': 'text/css', '.js': 'text/javascript', '.mjs': 'text/javascript', '.cjs': 'text/javascript',
  '.json': 'application/json', '.map': 'application/json', '.webmanifest': 'application/manifest+json', '.txt': 'text/plain', '.md': 'text/markdown',
  '.xml': 'application/xml', '.csv': 'text/csv', '.svg': 'image/svg+xml', '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg',
  '.gif': 'image/gif', '.webp': 'image/webp', '.avif': 'image/avif', '.ico': 'image/x-icon', '.woff': 'font/woff', '.woff2': 'font/woff2',
  '.ttf': 'font/ttf', '.otf': 'font/otf', '.wasm': 'application/wasm', '.pdf': 'application/pdf', '.mp4': 'video/mp4', '.webm': 'video/webm',
  '.mp3': 'audio/mpeg', '.wav': 'audio/wav', '.zip': 'application/zip', '.rsc': 'text/x-component',
};

/** A file's content type by its extension, text with its charset, as the platform serves it; unknown: bytes. */
function contentTypeOf(path: string): string {
  const type = TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
  return /^text\/|json|xml|javascript/.test(type) ? `${type}; charset=utf-8` : type;
}

/** The folder's files as the bundle embeds them, and how many bytes; a folder over the platform's limits is one line. */
export function assetFiles(assets: StaticAssets, shown: string): { files: AssetFiles; bytes: number } {
  const rules = ignoreRules(assets.directory);
  const ignored = (path: string): boolean => rules.reduce<boolean>((out, rule) => rule(path) ?? out, false);
  const files: Record<string, readonly [string, string, string]> = {};
  let bytes = 0;
  let count = 0;
  for (const entry of readdirSync(assets.directory, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = relative(assets.directory, join(entry.parentPath, entry.name)).split(sep).join('/');
    if (NEVER_SERVED.has(path) || path.split('/').includes('node_modules') || ignored(path)) continue;
    const data = readFileSync(join(assets.directory, path));
    if (data.length > MAX_FILE_BYTES) throw new UsageError(`${shown}: the asset ${path} is ${data.length} bytes, more than the ${MAX_FILE_BYTES} the Workers platform serves`);
    bytes += data.length;
    if (++count > MAX_FILES) throw new UsageError(`${shown}: assets.directory holds more than ${MAX_FILES} files, the most the Workers platform serves`);
    if (bytes > MAX_TOTAL_BYTES) throw new UsageError(`${shown}: assets.directory holds more than ${MAX_TOTAL_BYTES} bytes, the most rtbench embeds in a Worker's bundle`);
    files[`/${path}`] = [contentTypeOf(path), createHash('sha256').update(data).digest('hex').slice(0, 32), data.toString('base64')];
  }
  return { files, bytes };
}

/**
 * What is said before the run of a project's assets: served in front of the
 * Worker on every runtime, or, for a framework app's Worker (`workersOnly`),
 * on the Workers runtime alone, the other runtimes answering the client
 * files through the app's Node.js server as its Node.js deployment does.
 */
export function assetsNote(assets: StaticAssets, shown: string, count: number, bytes: number, workersOnly = false): string {
  const ignoredFiles = ['_headers', '_redirects'].filter((f) => existsSync(join(assets.directory, f)));
  const how = `html_handling ${assets.routing.htmlHandling}, not_found_handling ${assets.routing.notFoundHandling}${assets.routing.runWorkerFirst !== false ? ', the Worker first' : ''}`;
  return `${shown}'s static assets (${count} ${count === 1 ? 'file' : 'files'}, ${bytes} bytes from ${relative(process.cwd(), assets.directory) || '.'}) are served in front of the Worker on ${workersOnly ? 'the Workers runtime' : 'every runtime'} as wrangler dev serves them (${how})${assets.binding ? `, and as env.${assets.binding}` : ''}${ignoredFiles.length ? `; its ${ignoredFiles.join(' and ')} ${ignoredFiles.length === 1 ? 'is' : 'are'} not applied` : ''}${workersOnly ? "; the runtimes with a Node.js server answer the app's client files through its Node.js server, as the framework serves them there" : ''}`;
}
