/**
 * process.env.NODE_ENV in a bundle. Libraries such as React choose their
 * build by it (`if (process.env.NODE_ENV === 'production')`), and a
 * runtime whose environment leaves it unset runs their development build:
 * the configuration trap that made one side of a published comparison slow.
 * Deployment bundlers (wrangler, Next.js, Vite) write the value into the
 * bundle; so does rtbench, with the variant's NODE_ENV when it sets one and
 * "production" when it does not, and only when a bundled package reads it
 * (a suite's own code otherwise sees exactly the variant's environment).
 */
import { resolve, sep } from 'node:path';
import { readFileSync } from 'node:fs';
import type { Metafile } from 'esbuild';

/** The value a bundle gets when the variant leaves NODE_ENV unset. */
export const DEFAULT_NODE_ENV = 'production';

const READS_NODE_ENV = /\bprocess\.env\.NODE_ENV\b/;
const NODE_MODULES = `${sep}node_modules${sep}`;

/** How a bundle saw NODE_ENV: the packages in it that read it, and the value written in for them. */
export interface NodeEnvUse {
  /** Packages (by name) whose bundled files read process.env.NODE_ENV; empty: nothing was written in. */
  readers: string[];
  value: string;
  /** True when the variant did not set it and the value is DEFAULT_NODE_ENV. */
  defaulted: boolean;
}

/** The package a file under node_modules belongs to (`react`, `@scope/name`). */
function packageOf(file: string): string {
  const rest = file.slice(file.lastIndexOf(NODE_MODULES) + NODE_MODULES.length).split(sep);
  return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
}

/** The packages whose files in the bundle (its metafile's inputs, relative to `workingDir`) read process.env.NODE_ENV, sorted. */
export function nodeEnvReaders(metafile: Metafile, workingDir: string): string[] {
  const readers = new Set<string>();
  for (const input of Object.keys(metafile.inputs)) {
    const file = resolve(workingDir, input);
    if (!file.includes(NODE_MODULES)) continue;
    let source: string;
    try {
      source = readFileSync(file, 'utf8');
    } catch {
      continue; // a virtual module (a plugin's namespace): not a package's file
    }
    if (READS_NODE_ENV.test(source)) readers.add(packageOf(file));
  }
  return [...readers].sort();
}

/** The esbuild define that writes `value` in for process.env.NODE_ENV. */
export function nodeEnvDefine(value: string): Record<string, string> {
  return { 'process.env.NODE_ENV': JSON.stringify(value) };
}
