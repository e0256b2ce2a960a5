/** A repository whose runner module takes mitata by a path into its installed package, as Bun's bench snippets do. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The repository's folder, with `snippets/runner.mjs` importing `../node_modules/mitata/src/cli.mjs`; the installed bench() throws. */
export function repositoryWithInstalledMitata(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(dir, 'node_modules', 'mitata', 'src'), { recursive: true });
  mkdirSync(join(dir, 'snippets'));
  writeFileSync(join(dir, 'node_modules', 'mitata', 'src', 'cli.mjs'), "export function bench() { throw new Error('the installed mitata ran'); }\nexport async function run() {}\n");
  writeFileSync(join(dir, 'snippets', 'runner.mjs'), "import * as Mitata from '../node_modules/mitata/src/cli.mjs';\nexport const bench = Mitata.bench;\nexport const run = Mitata.run;\n");
  return dir;
}

/**
 * A project on Vite+: `vite-plus` installed, and again under the npm alias `vp` (`"vp": "npm:vite-plus@…"`), whose
 * package.json names vite-plus; a package `other` with a test entry of its own. Each installed test entry throws.
 */
export function vitePlusProject(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const [installedAs, name] of [['vite-plus', 'vite-plus'], ['vp', 'vite-plus'], ['other', 'other']] as const) {
    mkdirSync(join(dir, 'node_modules', installedAs), { recursive: true });
    writeFileSync(join(dir, 'node_modules', installedAs, 'package.json'), JSON.stringify({ name, exports: { './test': './test.js' } }));
    writeFileSync(join(dir, 'node_modules', installedAs, 'test.js'), `export function bench() { throw new Error('the installed ${installedAs} ran'); }\n`);
  }
  return dir;
}
