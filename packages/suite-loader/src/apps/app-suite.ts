/**
 * A framework app brought as its folder (`rtbench run <app folder>`), as a
 * request suite, whichever its framework: each --request is a case, served
 * on the runtimes with a Node.js server by the program its framework module
 * makes of the Node.js side's build (serve-app.mjs mounting its handler),
 * and on the Workers runtime by the Cloudflare adapter's Worker with the
 * app's wrangler config and its client files as static assets (worker.ts,
 * assets-router.ts). The framework's home (all.ts lists it) plans the
 * build, builds it with the app's own toolchain when a run first needs it
 * (the declaration's prepare), not when its cases are listed, and masks its
 * build's names when the two editions' pages are compared. Every refusal
 * that needs no build (not installed, a binding, a framework rtbench does
 * not build yet) is one line before anything runs.
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { suiteNameFor } from '@rtbench/adapters/suite-name';
import { requestSuite, type ArmPackages, type InstalledPackage, type RequestDeclaration, type RequestSuite, type ResponseNormalizer } from '@rtbench/core';
import { type Served, type WorkersCompatibility } from '@rtbench/core/request';
import { patternNormalizer } from '@rtbench/core/same-work';
import { UsageError } from '@rtbench/core/usage-error';
import { AppBuildFailed, appWithVersions, failedEditions, modulesDigest, type Edition } from '@rtbench/host/apps';
import { storeNamedFile } from '@rtbench/host/programs';
import { appInstalls, armPins, armPinsRefusal, pinWords } from './app-arms.ts';
import { SIDE, type AppFramework, type AppPlan, type BuiltApp, type FrameworkHome } from './framework.ts';
import { FRAMEWORKS, identityOf, loadFramework } from './all.ts';
import { appRefusal, describeApp, frameworkAppAt, type Framework, type FrameworkApp } from './framework-app.ts';
import { buildToolNode, buildToolNodeVersion, cacheDir, serveAppModule } from '../places.ts';
import { appBuildCache, storePolicy } from '../store-policy.ts';
import type { SuiteLocation, WorkerRequests } from '../suite-location.ts';
import { askedRequests, claimsExport, projectWorker, servedWithCompatibility, storeBroughtEntry } from '../worker.ts';
import { readWranglerCompatibility, readWranglerProject } from '../wrangler-config.ts';

const APP_SUITE = join(import.meta.dirname, 'app-suite.ts');

/**
 * The frameworks rtbench builds, their homes loaded with this module: an app is planned as it is found (locateSuite
 * answers at once). Only finding a suite loads it, not finding a Worker or a brought file (worker.ts, brought-file.ts).
 */
const BUILT: readonly AppFramework[] = (await Promise.all(FRAMEWORKS.map(loadFramework))).filter((f) => f !== undefined);

/** What the entry hands appSuite: all JSON. */
interface AppSuiteOptions {
  name: string;
  /** How the framework's app is told apart: its home (the entry's import) holds the rest. */
  framework: Framework;
  dir: string;
  plan: AppPlan;
  /** The packages the app declares from the registry: what an arm may pin (`next@15.4.6`), the app then built from a copy with them installed. */
  installs: string[];
  compatibility: WorkersCompatibility;
  declarations: Pick<RequestDeclaration, 'name' | 'mix' | 'requests' | 'compareHeaders'>[];
  normalize?: readonly string[];
}

/** The app as a request suite, its entry written to the program cache; refused in one line when rtbench cannot build it (`built`: the frameworks it builds). */
export function locateApp(path: string, app: FrameworkApp, given: WorkerRequests = { request: [] }, built: readonly AppFramework[] = BUILT): SuiteLocation {
  const framework = built.find((f) => f.package === app.framework.package);
  if (!framework || !app.installed) throw appRefusal(path, app, built);
  const plan = framework.plan(path, app);
  if (plan.refused.node && plan.refused.workers) throw new UsageError(`${path} is ${describeApp(app)}; ${plan.refused.node}; ${plan.refused.workers}`);
  // A binding rtbench cannot stand in for is refused here, before any build.
  const compatibility = app.wrangler ? readWranglerCompatibility(app.wrangler) : { ...framework.defaultCompatibility, flags: [...framework.defaultCompatibility.flags] };
  const asked = askedRequests(given);
  const claims = claimsExport(app.dir);
  const pkgName = (JSON.parse(readFileSync(join(app.dir, 'package.json'), 'utf8')) as { name?: unknown }).name;
  const name = suiteNameFor(typeof pkgName === 'string' && pkgName ? pkgName : basename(app.dir));
  const options: AppSuiteOptions = { name, framework: identityOf(framework), dir: app.dir, plan, installs: appInstalls(app.dir), compatibility, declarations: asked.declarations, ...(asked.normalize ? { normalize: asked.normalize } : {}) };
  const notes = [
    `${path} is ${describeApp(app)}`,
    ...plan.notes,
    ...(['node', 'workers'] as const).flatMap((edition) => (plan.refused[edition] ? [`${RUNTIMES_OF[edition]} cannot serve it (${plan.refused[edition]}); ${RUNTIMES_OF[edition === 'node' ? 'workers' : 'node']} still run it`] : [])),
    ...asked.notes,
    ...(claims ? [claims.note] : []),
  ];
  const workers = plan.refused.workers ? [] : [`${servedWithCompatibility(app.wrangler ? basename(app.wrangler) : "rtbench's default wrangler config", compatibility)}; each edition's page is compared with its build's file names masked`];
  const source = `import home from ${JSON.stringify(framework.module)};\nimport { appSuite } from ${JSON.stringify(APP_SUITE)};\nexport default appSuite(home, ${JSON.stringify(options)});\n${claims ? `${claims.line}\n` : ''}`;
  return storeBroughtEntry(name, source, notes, workers);
}

/** What each edition's runtimes serve of the suite: the Node.js side's server, the Worker as a handler. */
const SERVED_BY: Readonly<Record<Edition, Served>> = { node: 'server', workers: 'handler' };

/** Each edition's runtimes, in a refusal's words. */
const RUNTIMES_OF: Readonly<Record<Edition, string>> = { node: 'the runtimes with a Node.js server', workers: 'the Workers runtime' };

/** The built app as the runtimes serve it: the Worker's handler wrapper, the Node.js server program with what it reads; an edition not built is absent. */
interface ServedApp {
  handler?: string;
  server?: { program: string; reads: readonly string[]; sys?: readonly string[] };
}

/** The built editions as served: the Worker through rtbench's wrapper (its assets said once built), the server program stored. */
function served(name: string, built: BuiltApp, say: (line: string) => void): ServedApp {
  let handler: string | undefined;
  if (built.workers) {
    const { config, preludes } = built.workers;
    const project = readWranglerProject(config);
    const main = built.workers.main ?? project.main;
    const worker = projectWorker(`${name}-app`, main, `${basename(config)}: main ${project.main ? basename(project.main) : '(none)'}${built.workers.main ? ', as wrangler bundles it' : ''}`, project, preludes, true);
    // The notes of the served Worker that the run did not say before (its assets, once they are built).
    for (const note of worker.notes.filter((n) => /static assets/.test(n))) say(note);
    handler = worker.handler;
  }
  const server = built.node ? { program: storeNamedFile(join(cacheDir, 'brought', `${name}-${built.key}-serve.mjs`), built.node.source), reads: built.node.reads, ...(built.node.sys ? { sys: built.node.sys } : {}) } : undefined;
  return { ...(handler ? { handler } : {}), ...(server ? { server } : {}) };
}

/** rtbench's app modules here, every framework's home among them (its plan, its build, what it hands the build: an adapter's config, a default wrangler config), hashed. */
export function appModulesHash(): string {
  return modulesDigest(import.meta.dirname, /\.(ts|mjs|cjs)$/).slice(0, 16);
}

/** The plan with rtbench's app modules and the Node.js its tools run on among its versions: a build's key names what made it, so a build kept across checkouts is never an older rtbench's. */
const withModules = (plan: AppPlan): AppPlan => ({ ...plan, versions: { ...plan.versions, 'rtbench:app-modules': appModulesHash(), 'rtbench:build-node': buildToolNodeVersion() } });

/** What one build of some editions gave: the packages a pinned copy installed, and each edition that failed, with its line. */
interface EditionsOutcome {
  installed: InstalledPackage[];
  failed: Readonly<Partial<Record<Edition, string>>>;
}

/**
 * `build` of `editions`, where an edition whose build failed costs only its
 * own runtimes: the others are built again, which the cache holds whole
 * (only what follows a build, reading and serving it, is done again).
 */
async function buildEach(build: (editions: readonly Edition[]) => Promise<InstalledPackage[]>, editions: readonly Edition[]): Promise<EditionsOutcome> {
  try {
    return { installed: await build(editions), failed: {} };
  } catch (error) {
    const failed = failedEditions(error);
    if (!failed) throw error;
    const built = editions.filter((edition) => failed[edition] === undefined);
    return { installed: built.length ? await build(built) : [], failed };
  }
}

/** One edition's share of a build: what it installed, or its failure in one line naming the side. */
const editionOf = (outcome: Promise<EditionsOutcome>, edition: Edition): Promise<InstalledPackage[]> =>
  outcome.then(({ installed, failed }) => {
    const why = failed[edition];
    if (why !== undefined) throw new AppBuildFailed(`${SIDE[edition]} was not built: ${why}`);
    return installed;
  });

/** The app's request suite, made in the entry rtbench writes (locateApp) from its framework's home and its options. */
export function appSuite(home: FrameworkHome, options: AppSuiteOptions): RequestSuite {
  const framework: AppFramework = { ...options.framework, ...home };
  const say = (line: string): void => void process.stderr.write(`${options.name}: ${line}\n`);
  const root = join(appBuildCache(), options.name);
  // One build per set of versions an arm builds with (none pinned: the app as it is), each served apart, its editions as the runtimes ask.
  const apps = new Map<string, ServedApp>();
  const preparing = new Map<string, Promise<InstalledPackage[]>>();
  const pinsOf = (packages: ArmPackages): Record<string, string> => armPins(options.dir, options.installs, packages);
  const keyOf = (pins: Readonly<Record<string, string>>): string => JSON.stringify(Object.entries(pins).sort());
  const keep = (pins: Readonly<Record<string, string>>, app: ServedApp): void => void apps.set(keyOf(pins), { ...apps.get(keyOf(pins)), ...app });
  // The adapters rtbench adds are said before the run (the plan's notes), not recorded per arm: one edition's adapter is no package of the other's runtimes.
  const build = async (pins: Readonly<Record<string, string>>, editions: readonly Edition[]): Promise<InstalledPackage[]> => {
    const context = { root, node: buildToolNode(), say, editions };
    if (!Object.keys(pins).length) {
      keep(pins, served(options.name, await framework.build(withModules(options.plan), { ...context, dir: options.dir }), say));
      return [];
    }
    // A copy of the app with the pinned versions installed (the app's folder untouched), planned and built as the app is.
    // The install in the library store's folder, which checkouts may share (RTBENCH_LIBRARY_CACHE); the copy beside the app's builds.
    const copy = appWithVersions(options.dir, { copies: join(root, 'versions'), installs: join(storePolicy('libraries').dir, 'app-versions') }, pins, say);
    const app = frameworkAppAt(copy.dir, [framework]);
    if (!app) throw new Error(`${copy.dir}: the copy of the app is not a ${framework.package} app`);
    const plan = framework.plan(options.dir, app);
    for (const edition of ['node', 'workers'] as const) {
      if (plan.refused[edition] && !options.plan.refused[edition]) throw new UsageError(`with ${pinWords(pins)}, ${SIDE[edition]} cannot be built: ${plan.refused[edition]}`);
    }
    say(`an arm with ${pinWords(pins)} builds from ${copy.dir} (installed by ${copy.manager.name}; the app's own folder untouched)`);
    keep(pins, served(options.name, await framework.build(withModules({ ...plan, versions: { ...plan.versions, ...pins } }), { ...context, dir: copy.dir }), say));
    return copy.packages.map((p) => ({ ...p, sha256: copy.sha256, set: `${options.name}-app` }));
  };
  const buildable = (['node', 'workers'] as const).filter((edition) => !options.plan.refused[edition]);
  // Only the editions the arms' runtimes serve are built (each once per set of versions); a runtime whose edition is refused reads the other's.
  const prepare = (packages: ArmPackages, serves: readonly Served[] = ['server', 'handler']): Promise<InstalledPackage[]> => {
    const pins = pinsOf(packages);
    const asked = buildable.filter((edition) => serves.includes(SERVED_BY[edition]));
    const editions = asked.length ? asked : buildable;
    const missing = editions.filter((edition) => !preparing.has(`${keyOf(pins)} ${edition}`));
    if (missing.length) {
      const pending = buildEach((some) => build(pins, some), missing);
      for (const edition of missing) preparing.set(`${keyOf(pins)} ${edition}`, editionOf(pending, edition));
    }
    return Promise.all(editions.map((edition) => preparing.get(`${keyOf(pins)} ${edition}`)!)).then((all) => all[0]!);
  };
  const built = (packages: ArmPackages): ServedApp => {
    const app = apps.get(keyOf(pinsOf(packages)));
    if (!app) throw new Error(`${options.name}: the app is read before the run built it for the arm's packages (its declaration's prepare)`);
    return app;
  };
  const patterns = options.normalize ? patternNormalizer(options.normalize) : undefined;
  const normalize: ResponseNormalizer = patterns ? (response) => patterns({ ...response, body: framework.normalize(response) }) : framework.normalize;
  return requestSuite(
    options.name,
    options.declarations.map((d) => ({
      ...d,
      installs: options.installs,
      refusePackages: (packages) => armPinsRefusal(options.dir, options.installs, pinsOf(packages)),
      prepare,
      // A refused Workers edition has no Worker: the Node.js side's program stands for the suite's code, and the Workers runtime says why.
      handler: (packages) => built(packages).handler ?? built(packages).server!.program,
      handlerUnsupported: () => options.plan.refused.workers,
      // Asked only of the runtimes that run a program: the Node.js side's server. On deno it reads what the framework
      // names, serve-app.mjs and the program, and the environment (an adapter reads its settings there).
      server: (packages) => {
        if (options.plan.refused.node) return { unsupported: options.plan.refused.node };
        const { program, reads, sys } = built(packages).server!;
        return { program, permissions: { read: [...reads, serveAppModule, program], ...(sys ? { sys: [...sys] } : {}), env: true } };
      },
      compatibility: options.compatibility,
      normalize,
    })),
  );
}
