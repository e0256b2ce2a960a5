/**
 * The page's script and style, built from this package's sources and
 * node_modules when a report is first rendered: esbuild bundles page/main.ts
 * (a history: page/history.ts)
 * with Observable Plot (and its d3 modules) into one minified IIFE that goes
 * inline into the HTML, so the file needs no network. Built once per process.
 * esbuild (whose service is a process of its own) is loaded only when a page
 * is rendered: every other format shows a run with nothing started.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export interface PageAssets {
  script: string;
  style: string;
}

const cached = new Map<string, PageAssets>();

/** The page script from `entry` (a file under page/), bundled, with style.css and any `extraStyles` files after it. */
function bundlePage(entry: string, extraStyles: string[] = []): PageAssets {
  const hit = cached.get(entry);
  if (hit) return hit;
  const { buildSync } = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
  const result = buildSync({
    entryPoints: [fileURLToPath(new URL(`./page/${entry}`, import.meta.url))],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    // Plot and d3 are ISC-licensed: keep their notices with the code.
    legalComments: 'eof',
    logLevel: 'silent',
  });
  const script = result.outputFiles[0]!.text;
  const style = ['style.css', ...extraStyles].map((f) => readFileSync(fileURLToPath(new URL(`./page/${f}`, import.meta.url)), 'utf8')).join('\n');
  const assets = { script, style };
  cached.set(entry, assets);
  return assets;
}

/** The run and comparison page (page/main.ts). */
export function pageAssets(): PageAssets {
  return bundlePage('main.ts');
}

/** The history page (page/history.ts): its own script, the same style with a few rules of its own. */
export function historyPageAssets(): PageAssets {
  return bundlePage('history.ts', ['history.css']);
}

/** The release matrix's page (page/releases.ts), with the history page's rules for change lists. */
export function releasesPageAssets(): PageAssets {
  return bundlePage('releases.ts', ['history.css', 'releases.css']);
}
