/**
 * The fixture app built once per content as every Next.js app is
 * (@rtbench/suite-loader's apps/next/build.ts: `next build`, OpenNext's Cloudflare
 * adapter on that same build, wrangler's bundle of its Worker), here with
 * the suite's toolchain from rtbench's library cache (toolchain.ts) linked
 * as its node_modules, into .rtbench-cache/next-page/<key>, the key a hash
 * of the app's files and the toolchain's versions. Next.js's telemetry is
 * off and the app loads no remote font: the build does not reach the
 * network.
 */
import { appModulesHash, buildNextApp, buildToolNode, nextServerSource, type NextBuild } from '@rtbench/suite-loader';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Toolchain } from './toolchain.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
export const APP_DIR = join(HERE, 'app');

/** The compatibility the adapter's Worker asks for (app/wrangler.jsonc, checked by a test): workerd serves it with them. */
export const WORKER_COMPATIBILITY = { date: '2025-09-01', flags: ['nodejs_compat', 'global_fetch_strictly_public'] } as const;

/** The app built into `cacheDir`/next-page with the toolchain (reused when cached; a step that fails throws AppBuildFailed with one line). */
export function buildNextPage(cacheDir: string, toolchain: Toolchain, appDir = APP_DIR, say: (line: string) => void = () => {}): NextBuild {
  return buildNextApp({ appDir, modules: toolchain.modules, node: buildToolNode(), root: join(cacheDir, 'next-page'), versions: { ...toolchain.versions, 'rtbench:app-modules': appModulesHash() }, server: nextServerSource, say });
}
