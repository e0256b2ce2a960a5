/** A React Router app's vite config and where its build writes, as its plan and its build read them. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What react-router build writes, in the edition's folder: the server build
 * and the client files; and the module rtbench bundles beside the Node.js
 * side's server build (nodeServerBundle).
 */
export const REACT_ROUTER_OUT = { server: join('build', 'server'), client: join('build', 'client'), bundle: join('build', 'server', 'rtbench-server.mjs') } as const;

/** The names vite looks for its config by. */
const VITE_CONFIGS = ['vite.config.js', 'vite.config.mjs', 'vite.config.ts', 'vite.config.cjs', 'vite.config.mts', 'vite.config.cts'];

/** The vite config a React Router app builds with, if it has one. */
export function viteConfigOf(dir: string): string | undefined {
  return VITE_CONFIGS.find((name) => existsSync(join(dir, name)));
}
