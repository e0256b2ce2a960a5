/**
 * A framework app brought as its folder (`rtbench run <app folder>`), as a
 * request suite: each --request is a case, served on the runtimes with a
 * Node.js server by the app's Node adapter's output (serve-app.mjs mounts
 * its handler), and on the Workers runtime by its Cloudflare adapter's
 * Worker with the app's wrangler config and its client files as static
 * assets (worker.ts, assets-router.ts). The app is built with its own
 * toolchain when a run first needs it (the declaration's prepare:
 * @rtbench/host sveltekit-build.ts), not when its cases are listed. What the
 * app does not declare (an adapter) rtbench adds from its library cache at
 * the version below, and says so. The two editions' pages are compared with
 * the build's names masked (app-pages.ts). Every refusal that needs no build
 * (not installed, a binding, a framework rtbench does not build yet) is one
 * line before anything runs.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { basename, join } from 'node:path';
import { suiteNameFor } from '@rtbench/adapters/suite-name';
import { requestSuite, type RequestDeclaration, type RequestSuite, type ResponseNormalizer, type WorkersCompatibility } from '@rtbench/core';
import { patternNormalizer } from '@rtbench/core/same-work';
import { UsageError } from '@rtbench/core/usage-error';
import { buildSvelteKit, LibraryStore, packageEntry, storeNamedFile, svelteConfigOf, type Edition, type EditionAdapter } from '@rtbench/host';
import { normalizeSvelteKitPage } from './app-pages.ts';
import { appRefusal, describeApp, type FrameworkApp } from './framework-app.ts';
import { buildToolNode, cacheDir, serveAppModule } from './places.ts';
import { storePolicy } from './store-policy.ts';
import type { SuiteLocation, WorkerRequests } from './suite-location.ts';
import { askedRequests, projectWorker, storeBroughtEntry } from './worker.ts';
import { readWranglerCompatibility, readWranglerProject, wranglerConfigAt } from './wrangler-config.ts';

const APP_SUITE = join(import.meta.dirname, 'app-suite.ts');
/** The Cache API as a workers.dev address has it (stores nothing), imported before the Cloudflare adapter's Worker. */
const WORKERS_CACHE = join(import.meta.dirname, 'workers-cache.ts');

/** Each edition's adapter package. */
const ADAPTERS: Readonly<Record<Edition, string>> = { node: '@sveltejs/adapter-node', workers: '@sveltejs/adapter-cloudflare' };

/** An adapter rtbench adds: its version, and the peers installed beside it. */
interface AddedAdapter {
  readonly version: string;
  readonly peers?: Readonly<Record<string, string>>;
}

/**
 * The adapters rtbench adds when an app does not declare one, by the app's
 * @sveltejs/kit major, at released versions whose peer range takes that
 * major; the Cloudflare adapter reads the app's wrangler config through
 * wrangler, its peer. None for a major no released adapter supports.
 */
export const ADDED_ADAPTERS: Readonly<Record<string, Partial<Record<Edition, AddedAdapter>>>> = {
  '2': { node: { version: '5.5.7' }, workers: { version: '7.2.9', peers: { wrangler: '4.164.0' } } },
  '3': { node: { version: '6.0.1' } },
};

/**
 * Whether a version is in a peer range as adapters write them
 * (`^2.0.0`, `^3.0.0-next.0`, `>=2`, alternatives joined by `||`): a caret's
 * major (and at least its version), a lower bound; a form not read here
 * admits it (the build then says what is wrong).
 */
export function inPeerRange(version: string, range: string): boolean {
  const parts = (v: string): number[] => v.replace(/^[^\d]*/, '').split(/[-+]/)[0]!.split('.').map((n) => Number.parseInt(n, 10) || 0);
  const compare = (a: number[], b: number[]): number => a[0]! - b[0]! || (a[1] ?? 0) - (b[1] ?? 0) || (a[2] ?? 0) - (b[2] ?? 0);
  const have = parts(version);
  return range.split('||').some((alternative) => {
    const term = alternative.trim();
    if (term.startsWith('^')) return parts(term)[0] === have[0] && compare(have, parts(term)) >= 0;
    if (term.startsWith('>=')) return compare(have, parts(term)) >= 0;
    if (/^\d+(\.(\d+|x))?(\.(\d+|x))?$/.test(term)) return parts(term)[0] === have[0];
    return true;
  });
}

/** The range of @sveltejs/kit an installed adapter declares it supports, if it declares one. */
function kitRangeOf(packageDir: string): string | undefined {
  try {
    const range = (JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { peerDependencies?: Record<string, unknown> }).peerDependencies?.['@sveltejs/kit'];
    return typeof range === 'string' ? range : undefined;
  } catch {
    return undefined;
  }
}

/** The compatibility a Cloudflare adapter's Worker is served with when the app has no wrangler config: its async context and Node.js APIs (nodejs_compat). */
const DEFAULT_COMPATIBILITY = { date: '2025-09-01', flags: ['nodejs_compat'] } as const;
/** Where the Cloudflare adapter writes its Worker and client files. */
const CLOUDFLARE_OUT = '.svelte-kit/cloudflare';
const DEFAULT_WRANGLER = `${JSON.stringify({ name: 'app', main: `${CLOUDFLARE_OUT}/_worker.js`, compatibility_date: DEFAULT_COMPATIBILITY.date, compatibility_flags: DEFAULT_COMPATIBILITY.flags, assets: { binding: 'ASSETS', directory: CLOUDFLARE_OUT } }, null, 2)}\n`;

/** How each edition gets its adapter: the config's own, one the app declares and installed, or one rtbench adds. */
export type AdapterPlan = Readonly<Record<Edition, { readonly own: true } | { readonly declared: string } | { readonly added: AddedAdapter }>>;

const SIDE: Readonly<Record<Edition, string>> = { node: 'the Node.js side', workers: 'the Workers side' };

/**
 * Which adapter builds each edition: the one the app's config imports
 * serves its side as configured; else the one the app declares; else the
 * one rtbench adds for the app's @sveltejs/kit version. An adapter that
 * does not support that version (its peer range), and a kit version no
 * adapter rtbench adds supports, are refused in one line.
 */
export function svelteKitAdapters(app: Pick<FrameworkApp, 'dir' | 'version' | 'nodeAdapters' | 'workersAdapters'>, configText: string): AdapterPlan {
  const plan = (edition: Edition, declared: readonly string[]): AdapterPlan[Edition] => {
    const name = ADAPTERS[edition];
    const own = new RegExp(`['"]${name.replace('/', '\\/')}['"]`).test(configText);
    if (own || declared.includes(name)) {
      const range = kitRangeOf(join(app.dir, 'node_modules', name));
      if (range !== undefined && !inPeerRange(app.version, range)) throw new UsageError(`${app.dir}: its ${name} supports @sveltejs/kit ${range}, not the app's ${app.version}: install a release of ${name} for it`);
      return own ? { own: true } : { declared: name };
    }
    const added = ADDED_ADAPTERS[String(Number.parseInt(app.version, 10))]?.[edition];
    if (!added) throw new UsageError(`${app.dir}: the app declares no ${name} for ${SIDE[edition]}, and rtbench adds none for @sveltejs/kit ${app.version} (it adds ${name} for @sveltejs/kit ${Object.keys(ADDED_ADAPTERS).filter((major) => ADDED_ADAPTERS[major]![edition]).join(', ')}): declare one that supports it`);
    return { added };
  };
  return { node: plan('node', app.nodeAdapters), workers: plan('workers', app.workersAdapters) };
}

/** What is said of the plan: each adapter rtbench adds, at its version, and each it names in place of the config's. */
export function adapterNotes(plan: AdapterPlan, config: string): string[] {
  return (['node', 'workers'] as const).flatMap((edition) => {
    const p = plan[edition];
    const name = ADAPTERS[edition];
    if ('own' in p) return [];
    if ('declared' in p) return [`${SIDE[edition]} is built with the app's own ${name}, named in place of ${config}'s adapter`];
    return [`the app declares no ${name}: rtbench adds ${name} ${p.added.version} from its cache for ${SIDE[edition]}, named in place of ${config}'s adapter`];
  });
}

/** What the entry hands appSuite: all JSON. */
interface AppSuiteOptions {
  name: string;
  dir: string;
  plan: AdapterPlan;
  versions: Record<string, string>;
  compatibility: WorkersCompatibility;
  declarations: Pick<RequestDeclaration, 'name' | 'mix' | 'requests' | 'compareHeaders'>[];
  normalize?: readonly string[];
}

/** The version installed in the app's node_modules of each package, for the build's key. */
function installedVersions(dir: string, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    try {
      out[name] = String((JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')) as { version?: unknown }).version);
    } catch {
      // Not installed: not in the key.
    }
  }
  return out;
}

/** The app as a request suite, its entry written to the program cache; refused in one line when rtbench cannot build it. */
export function locateApp(path: string, app: FrameworkApp, given: WorkerRequests = { request: [] }): SuiteLocation {
  if (app.framework.package !== '@sveltejs/kit' || !app.installed) throw appRefusal(path, app);
  if (!existsSync(join(app.dir, 'node_modules', 'vite', 'bin', 'vite.js'))) throw new UsageError(`${path} is ${describeApp(app)}; its vite is not installed (no node_modules/vite): install its dependencies with its package manager first`);
  const config = svelteConfigOf(app.dir);
  if (!config) throw new UsageError(`${path} is ${describeApp(app)}; it has no svelte.config.js (or .mjs), where a SvelteKit app names its adapter`);
  // A binding rtbench cannot stand in for is refused here, before any build.
  const compatibility = app.wrangler ? readWranglerCompatibility(app.wrangler) : { ...DEFAULT_COMPATIBILITY, flags: [...DEFAULT_COMPATIBILITY.flags] };
  const plan = svelteKitAdapters(app, readFileSync(join(app.dir, config), 'utf8'));
  const asked = askedRequests(given);
  const pkgName = (JSON.parse(readFileSync(join(app.dir, 'package.json'), 'utf8')) as { name?: unknown }).name;
  const name = suiteNameFor(typeof pkgName === 'string' && pkgName ? pkgName : basename(app.dir));
  const versions = installedVersions(app.dir, ['@sveltejs/kit', 'vite', 'svelte', '@sveltejs/vite-plugin-svelte', ...Object.values(ADAPTERS)]);
  const options: AppSuiteOptions = { name, dir: app.dir, plan, versions, compatibility, declarations: asked.declarations, ...(asked.normalize ? { normalize: asked.normalize } : {}) };
  const notes = [
    `${path} is ${describeApp(app)}`,
    ...adapterNotes(plan, config),
    `the Workers runtime serves it with ${app.wrangler ? basename(app.wrangler) : "rtbench's default wrangler config"}'s compatibility date ${compatibility.date ?? "(none: rtbench's)"} and flags ${compatibility.flags.join(', ') || '(none)'}; each edition's page is compared with its build's file names masked`,
    "adapter-cloudflare's Worker finds the Cache API empty, as a workers.dev address has it: every request renders its page, as on the Node.js side",
    ...asked.notes,
  ];
  const source = `import { appSuite } from ${JSON.stringify(APP_SUITE)};\nexport default appSuite(${JSON.stringify(options)});\n`;
  return storeBroughtEntry(name, source, notes);
}

/** The built app: the Worker's handler wrapper and the Node.js server program. */
interface PreparedApp {
  handler: string;
  server: string;
  nodeEdition: string;
}

/** Each edition's adapter module: the app's config as it is, the app's installed package, or rtbench's cached one (installed now when missing, proven on every use). */
async function editionAdapters(dir: string, plan: AdapterPlan): Promise<Record<Edition, EditionAdapter>> {
  const store = new LibraryStore(storePolicy('libraries'));
  const adapters = {} as Record<Edition, EditionAdapter>;
  for (const edition of ['node', 'workers'] as const) {
    const p = plan[edition];
    const name = ADAPTERS[edition];
    if ('own' in p) adapters[edition] = { own: true };
    else if ('declared' in p) adapters[edition] = { module: packageEntry(join(dir, 'node_modules', p.declared)) };
    else {
      const set = await store.getSet(`app-${name.replace('@sveltejs/', '')}`, { [name]: p.added.version, ...p.added.peers });
      adapters[edition] = { module: packageEntry(join(set.root, 'node_modules', name)) };
    }
  }
  return adapters;
}

/** The program each runtime with a Node.js server runs: adapter-node's handler mounted by serve-app.mjs. */
const serverSource = (handler: string): string => `import { handler } from ${JSON.stringify(handler)};\nimport { serveNodeHandler } from ${JSON.stringify(serveAppModule)};\nserveNodeHandler(handler);\n`;

/** The app's request suite, made in the entry rtbench writes (locateApp) from its options. */
export function appSuite(options: AppSuiteOptions): RequestSuite {
  let prepared: PreparedApp | undefined;
  let preparing: Promise<void> | undefined;
  const say = (line: string): void => void process.stderr.write(`${options.name}: ${line}\n`);
  // The adapters rtbench adds are said before the run (adapterNotes), not recorded per arm: one edition's adapter is no package of the other's runtimes.
  const prepare = (): Promise<void> =>
    (preparing ??= (async () => {
      const adapters = await editionAdapters(options.dir, options.plan);
      const versions = { ...options.versions, ...Object.fromEntries((['node', 'workers'] as const).flatMap((e) => { const p = options.plan[e]; return 'added' in p ? [[ADAPTERS[e], p.added.version]] : []; })) };
      const build = buildSvelteKit({ appDir: options.dir, node: buildToolNode(), root: join(cacheDir, 'apps', options.name), versions, adapters, defaultWrangler: DEFAULT_WRANGLER, say });
      const config = wranglerConfigAt(build.dirs.workers)!;
      const project = readWranglerProject(config);
      const worker = projectWorker(`${options.name}-app`, project.main, `${basename(config)}: main ${project.main ? basename(project.main) : '(none)'}`, project, [WORKERS_CACHE]);
      // The notes of the served Worker that the run did not say before (its assets, once they are built).
      for (const note of worker.notes.filter((n) => /static assets/.test(n))) say(note);
      const server = storeNamedFile(join(cacheDir, 'brought', `${options.name}-${basename(build.dirs.node)}-serve.mjs`), serverSource(build.nodeHandler));
      prepared = { handler: worker.handler, server, nodeEdition: build.dirs.node };
    })());
  const built = (): PreparedApp => {
    if (!prepared) throw new Error(`${options.name}: the app is read before the run built it (its declaration's prepare)`);
    return prepared;
  };
  const patterns = options.normalize ? patternNormalizer(options.normalize) : undefined;
  const normalize: ResponseNormalizer = patterns ? (response) => patterns({ ...response, body: normalizeSvelteKitPage(response) }) : normalizeSvelteKitPage;
  return requestSuite(
    options.name,
    options.declarations.map((d) => ({
      ...d,
      prepare,
      handler: () => built().handler,
      // Asked only of the runtimes that run a program: adapter-node's output, under serve-app.mjs. On deno it reads the
      // edition's folder, the app's packages and serve-app.mjs, and the environment (adapter-node reads its settings there).
      server: () => {
        const app = built();
        return { program: app.server, permissions: { read: [app.nodeEdition, realpathSync(join(app.nodeEdition, 'node_modules')), serveAppModule, app.server], env: true } };
      },
      compatibility: options.compatibility,
      normalize,
    })),
  );
}
