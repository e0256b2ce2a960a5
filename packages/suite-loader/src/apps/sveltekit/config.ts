/** Where a SvelteKit app names its adapter, as its plan and its build read it. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where a vite config names the adapter among sveltekit()'s options (`adapter: adapter()`), as `npx sv create` writes it: the binding called. */
export const VITE_ADAPTER = /\badapter\s*:\s*([\w$]+)\s*\(/;
const VITE_CONFIGS = ['vite.config.ts', 'vite.config.js', 'vite.config.mjs', 'vite.config.mts'];

/**
 * The file a SvelteKit app names its adapter in: svelte.config.js (or .mjs),
 * else (today's template, without one) its vite config when it passes an
 * adapter to sveltekit().
 */
export function svelteConfigOf(dir: string): string | undefined {
  return (
    ['svelte.config.js', 'svelte.config.mjs'].find((name) => existsSync(join(dir, name))) ??
    VITE_CONFIGS.find((name) => existsSync(join(dir, name)) && /\bsveltekit\s*\(/.test(readFileSync(join(dir, name), 'utf8')) && VITE_ADAPTER.test(readFileSync(join(dir, name), 'utf8')))
  );
}
