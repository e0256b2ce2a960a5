/** An Astro app's config and where its build writes, as its plan and its build read them. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** What astro build writes, in the edition's folder, and the module rtbench bundles of the Node.js side's server. */
export const ASTRO_OUT = { server: join('dist', 'server'), client: join('dist', 'client'), bundle: join('dist', 'server', 'rtbench-server.mjs') } as const;

/** The names Astro looks for its config by. */
const ASTRO_CONFIGS = ['astro.config.mjs', 'astro.config.js', 'astro.config.ts', 'astro.config.mts', 'astro.config.cjs', 'astro.config.cts'];

/** The config an Astro app builds with, if it has one. */
export function astroConfigOf(dir: string): string | undefined {
  return ASTRO_CONFIGS.find((name) => existsSync(join(dir, name)));
}

/**
 * The CSS target both editions' server-rendered styles are built for when
 * both are built: the one the Cloudflare Vite plugin gives a Worker's build
 * (its `cssTarget`). astro builds the Node.js side's server for 'esnext',
 * which lightningcss prefixes nothing for, while for the browsers of es2024
 * it writes `-webkit-backdrop-filter` beside `backdrop-filter`: the same
 * page would differ in its inlined style alone.
 */
export const SERVER_CSS_TARGET = 'es2024';
