/** What a Next.js app's plan reads before any build (its Google Fonts imports), and the names its build leaves in the app's folder. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The folder wrangler bundles OpenNext's Worker into. */
export const WORKER_BUNDLE = 'worker-bundle';

/** Files of the app not copied into its build: its installed packages, its repository, and outputs of earlier builds. */
export const NOT_COPIED = new Set(['node_modules', '.git', '.next', '.open-next', '.wrangler', WORKER_BUNDLE]);

/** Whether any source module of the app imports next/font/google, whose fonts next build would fetch from Google Fonts (its installed packages and build outputs not read). */
export function usesGoogleFonts(dir: string): boolean {
  return readdirSync(dir, { withFileTypes: true }).some((e) =>
    e.isDirectory() ? !NOT_COPIED.has(e.name) && usesGoogleFonts(join(dir, e.name)) : e.isFile() && /\.[cm]?[jt]sx?$/.test(e.name) && readFileSync(join(dir, e.name), 'utf8').includes('next/font/google'),
  );
}
