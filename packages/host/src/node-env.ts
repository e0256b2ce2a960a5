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
import { readFileSync } from 'node:fs';
import type { BundledPackage } from './bundled-packages.ts';

/** The value a bundle gets when the variant leaves NODE_ENV unset. */
export const DEFAULT_NODE_ENV = 'production';

const READS_NODE_ENV = /\bprocess\.env\.NODE_ENV\b/;

/** How a bundle saw NODE_ENV: the packages in it that read it, and the value written in for them. */
export interface NodeEnvUse {
  /** Packages (by name) whose bundled files read process.env.NODE_ENV; empty: nothing was written in. */
  readers: string[];
  value: string;
  /** True when the variant did not set it and the value is DEFAULT_NODE_ENV. */
  defaulted: boolean;
}

/** Whether any of the files reads process.env.NODE_ENV. */
export function readsNodeEnv(files: readonly string[]): boolean {
  return files.some((file) => READS_NODE_ENV.test(readSource(file)));
}

/** The packages of a bundle that read process.env.NODE_ENV, by name, sorted. */
export function nodeEnvReaders(packages: readonly BundledPackage[]): string[] {
  return packages.filter((p) => readsNodeEnv(p.files)).map((p) => p.name);
}

function readSource(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return ''; // a virtual module (a plugin's namespace): not a package's file
  }
}

/** The esbuild define that writes `value` in for process.env.NODE_ENV. */
export function nodeEnvDefine(value: string): Record<string, string> {
  return { 'process.env.NODE_ENV': JSON.stringify(value) };
}
