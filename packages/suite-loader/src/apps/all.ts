/**
 * The frameworks rtbench recognises, in the order a folder is tried against
 * them: each entry says how its app is told apart (its package, its config
 * files, its adapters and what builds and serves it, in words) and, for a
 * framework rtbench builds and serves, where its home is (framework.ts says
 * what a home declares), loaded only when a folder is its app: finding a
 * suite, a Worker or a brought file loads no framework's code. One rtbench
 * only recognises (Nuxt) is refused in one line.
 */
import type { AppFramework, FrameworkHome } from './framework.ts';
import { configFiles, packagesInWords, type Framework } from './framework-app.ts';

/** A framework of the list: how its app is told apart, and, when rtbench builds it, its home's loader. */
export interface ListedFramework extends Framework {
  readonly home?: () => Promise<{ default: FrameworkHome }>;
}

export const FRAMEWORKS: readonly ListedFramework[] = [
  {
    name: 'Next.js',
    package: 'next',
    configs: configFiles('next.config'),
    builtWith: 'next build',
    node: { server: "Next.js's own server (what next start runs)", adapters: [] },
    workers: { worker: "OpenNext's Worker (opennextjs-cloudflare build)", adapters: ['@opennextjs/cloudflare'] },
    home: () => import('./next/next.ts'),
  },
  {
    name: 'SvelteKit',
    package: '@sveltejs/kit',
    // Today's template (npx sv create) names its adapter in vite.config's sveltekit() and has no svelte.config.
    configs: [...configFiles('svelte.config'), ...configFiles('vite.config')],
    builtWith: 'vite build, once per adapter',
    node: { server: "adapter-node's server", adapters: ['@sveltejs/adapter-node'] },
    workers: { worker: "adapter-cloudflare's Worker", adapters: ['@sveltejs/adapter-cloudflare'] },
    home: () => import('./sveltekit/sveltekit.ts'),
  },
  {
    name: 'React Router (framework mode)',
    package: '@react-router/dev',
    configs: configFiles('react-router.config'),
    builtWith: 'react-router build, once per edition',
    node: { server: "@react-router/node's request listener, as react-router-serve serves it", adapters: ['@react-router/node', '@react-router/serve'] },
    workers: { worker: "the Cloudflare Vite plugin's Worker", adapters: ['@cloudflare/vite-plugin', '@react-router/cloudflare'] },
    home: () => import('./react-router/react-router.ts'),
  },
  {
    name: 'Astro',
    package: 'astro',
    configs: configFiles('astro.config'),
    builtWith: 'astro build, once per adapter',
    node: { server: "@astrojs/node's standalone server", adapters: ['@astrojs/node'] },
    workers: { worker: "@astrojs/cloudflare's Worker", adapters: ['@astrojs/cloudflare'] },
    home: () => import('./astro/astro.ts'),
  },
  {
    name: 'Nuxt',
    package: 'nuxt',
    configs: configFiles('nuxt.config'),
    builtWith: 'nuxt build, once per Nitro preset',
    node: { server: "Nitro's node-server output", adapters: [] },
    workers: { worker: "Nitro's cloudflare-module Worker", adapters: [] },
  },
];

/** The frameworks' packages, as a refusal names what a folder's package.json lacks. */
export const FRAMEWORK_PACKAGES_IN_WORDS = packagesInWords(FRAMEWORKS);

/** How a framework's app is told apart, as data (its home's loader left out): what an app's suite entry is handed. */
export function identityOf(framework: Framework): Framework {
  const { name, package: pkg, configs, builtWith, node, workers } = framework;
  return { name, package: pkg, configs, builtWith, node, workers };
}

/** A listed framework with its home loaded; undefined for one rtbench only recognises. */
export async function loadFramework(framework: ListedFramework): Promise<AppFramework | undefined> {
  return framework.home ? { ...identityOf(framework), ...(await framework.home()).default } : undefined;
}
