/**
 * An app in the shape a framework's template makes it today
 * (fixtures/templates/<name>), copied to a scratch folder with every package
 * its package.json declares installed as a stub at the version it names (a
 * range's lowest), as its package manager would have them for detection:
 * a package.json each, vite's launcher, and the packages named in `beside`
 * (what a declared one brings with it). No framework code runs.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TEMPLATES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'templates');

export function templateApp(name: string, beside: Readonly<Record<string, string>> = {}, files: Readonly<Record<string, string>> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), `rtbench-template-${name}-`));
  cpSync(join(TEMPLATES, name), dir, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  const declared = { ...manifest.dependencies, ...manifest.devDependencies, ...beside };
  for (const [pkg, range] of Object.entries(declared)) {
    mkdirSync(join(dir, 'node_modules', pkg), { recursive: true });
    writeFileSync(join(dir, 'node_modules', pkg, 'package.json'), JSON.stringify({ name: pkg, version: range.replace(/^[\^~]/, '') }));
  }
  if (declared.vite !== undefined) {
    mkdirSync(join(dir, 'node_modules', 'vite', 'bin'), { recursive: true });
    writeFileSync(join(dir, 'node_modules', 'vite', 'bin', 'vite.js'), '');
  }
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}
