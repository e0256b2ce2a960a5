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
