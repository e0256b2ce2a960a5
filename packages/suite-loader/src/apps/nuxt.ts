/**
 * Nuxt, as rtbench recognises its apps: told apart and said in one line,
 * not built yet (an app is refused in one line that says how to run its
 * Worker, built with its own toolchain).
 */
import { configFiles, type Framework } from './framework-app.ts';

const nuxt: Framework = {
  name: 'Nuxt',
  package: 'nuxt',
  configs: configFiles('nuxt.config'),
  builtWith: 'nuxt build, once per Nitro preset',
  node: { server: "Nitro's node-server output", adapters: [] },
  workers: { worker: "Nitro's cloudflare-module Worker", adapters: [] },
};

export default nuxt;
