/**
 * The page's script and style, built from this package's sources and
 * node_modules when a report is first rendered: esbuild bundles page/main.ts
 * with Observable Plot (and its d3 modules) into one minified IIFE that goes
 * inline into the HTML, so the file needs no network. Built once per process.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

export interface PageAssets {
  script: string;
  style: string;
}

let cached: PageAssets | undefined;

export function pageAssets(): PageAssets {
  if (cached) return cached;
  const entry = fileURLToPath(new URL('./page/main.ts', import.meta.url));
  const result = buildSync({
    entryPoints: [entry],
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
  const style = readFileSync(fileURLToPath(new URL('./page/style.css', import.meta.url)), 'utf8');
  cached = { script, style };
  return cached;
}
