/**
 * A Next.js app built once with its own toolchain for both platforms:
 * `next build` in standalone mode (as OpenNext's own build runs it), then
 * OpenNext's Cloudflare adapter on that same build (`--skipNextBuild`) and
 * wrangler's bundle of its Worker (`deploy --dry-run`, nothing uploaded),
 * into a folder of rtbench's cache named by the app's files and the versions
 * it is built with (@rtbench/host's app-build.ts). The build is made in that folder itself:
 * Next.js and the adapter write the folder's path into their output. One
 * build serves every runtime: Next.js's own server reads its `.next`, the
 * Workers runtime the adapter's Worker. A run without the Workers runtime
 * builds Next.js's side alone (under a key of its own), unless the cache
 * holds the whole build. A folder with a whole build is reused; a failed
 * build leaves none and is one line quoting its last error.
 */
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppBuildFailed, appBuildKey, buildAfresh, cachedBuildProblem, copyAppFiles, nodePrefixed, runBuildStep, shownPath } from '@rtbench/host/apps';
import { ownerOnlyDir } from '@rtbench/host/programs';
import { NOT_COPIED, WORKER_BUNDLE } from './config.ts';

export interface NextBuildInput {
  /** The app's files (its node_modules and earlier build outputs are not copied). */
  readonly appDir: string;
  /** The node_modules the build's own is linked from (linkedTree): the app's own, or a set of rtbench's library cache. */
  readonly modules: string;
  /** Where OpenNext's Cloudflare adapter and wrangler are installed, when not in `modules` (a set rtbench added). */
  readonly adapterModules?: string;
  /** The Node.js that runs the build's tools. */
  readonly node: string;
  /** Where the builds are kept (a folder of rtbench's cache). */
  readonly root: string;
  /** Every version the build depends on beside the app's files. */
  readonly versions: Readonly<Record<string, string>>;
  /** The program each runtime with a Node.js server runs, given the build's folder and the Next.js module it was built with; written as its serve.mjs. */
  readonly server: (dir: string, next: string) => string;
  /** Whether the app loads fonts with next/font/google (usesGoogleFonts): the build stands in for Google Fonts' stylesheets. */
  readonly googleFonts?: boolean;
  /** Whether the Workers side is built (OpenNext's adapter and wrangler's bundle); false: Next.js's build alone, or the whole build when the cache holds it. */
  readonly workers?: boolean;
  /** A wrangler config written into the build when the app has none (OpenNext's adapter and wrangler read it). */
  readonly defaultWrangler?: string;
  readonly say?: (line: string) => void;
}

export interface NextBuild {
  /** The build's cache key (the app's files and versions): its folder is named by it. */
  readonly key: string;
  /** The built app's folder (next.config, .next, .open-next). */
  readonly dir: string;
  /** The Worker OpenNext's adapter made, bundled by wrangler as its deploy does, Node.js built-ins imported as node:*. */
  readonly worker: string;
  /** The program that serves the build with Next.js's own server (serve.mjs in the build). */
  readonly nodeServer: string;
  /** Whether this call built it (false: the cache had it). */
  readonly built: boolean;
  /** Whether it holds the Workers side (OpenNext's Worker). */
  readonly workers: boolean;
}

/** Where the Worker wrangler bundles from the adapter's output is written, in the build's folder. */
/** That Worker with its Node.js built-ins imported as node:*, the module rtbench serves on workerd. */
const WORKER_MODULE = 'worker.node-prefixed.js';

const WRANGLER_CONFIGS = ['wrangler.json', 'wrangler.jsonc', 'wrangler.toml'];
/** What next build reads in place of Google Fonts' answers (Next.js's NEXT_FONT_GOOGLE_MOCKED_RESPONSES): the build reaches no network. */
const GOOGLE_FONTS_STAND_IN = join(import.meta.dirname, 'google-fonts-stand-in.cjs');

/**
 * `from`'s tree made again at `to`: its folders made, its files linked
 * (copied where a link cannot cross file systems), its symbolic links
 * written as they are (a pnpm install's links are relative, so they point
 * into the new tree). The build's node_modules is such a tree, not a link
 * to the app's: Next.js's standalone output and OpenNext's bundle then hold
 * real files, which the adapter patches (Next.js's server's dynamic
 * requires) in the build's own copies; through a link, its patches missed
 * them and its copies wrote through to the app's own node_modules.
 */
function linkedTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const e of readdirSync(from, { withFileTypes: true })) {
    const [source, target] = [join(from, e.name), join(to, e.name)];
    if (e.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else if (e.isDirectory()) linkedTree(source, target);
    else if (e.isFile()) {
      try {
        linkSync(source, target);
      } catch {
        copyFileSync(source, target);
      }
    }
  }
}

/** OpenNext's adapter on the build, then wrangler's bundle of its Worker (its Node.js built-ins imported as node:*). */
function buildWorker(dir: string, adapterModules: string, node: string, log: string): void {
  runBuildStep('opennextjs-cloudflare build', node, join(adapterModules, '@opennextjs', 'cloudflare', 'dist', 'cli', 'index.js'), ['build', '--skipNextBuild'], dir, log);
  // The Worker as wrangler deploys it: the adapter's output bundled with the app's nodejs_compat, nothing uploaded.
  runBuildStep('wrangler deploy --dry-run', node, join(adapterModules, 'wrangler', 'bin', 'wrangler.js'), ['deploy', '--dry-run', '--outdir', WORKER_BUNDLE], dir, log);
  const bundled = join(dir, WORKER_BUNDLE, 'worker.js');
  if (!existsSync(bundled)) throw new AppBuildFailed(`wrangler deploy --dry-run wrote no ${WORKER_BUNDLE}/worker.js (its output: ${log})`);
  writeFileSync(join(dir, WORKER_BUNDLE, WORKER_MODULE), nodePrefixed(readFileSync(bundled, 'utf8')));
}

/** The app built (reused when its key's folder holds a whole build, proven: cachedBuildProblem). */
export function buildNextApp(input: NextBuildInput): NextBuild {
  const say = input.say ?? (() => {});
  const whole = appBuildKey(input.appDir, input.versions);
  ownerOnlyDir(input.root);
  // Next.js's build alone is asked for: a whole build the cache holds serves as well (its .next is the same build's).
  const workers = (input.workers ?? true) || (existsSync(join(input.root, whole)) && !cachedBuildProblem(join(input.root, whole)));
  const key = workers ? whole : appBuildKey(input.appDir, { ...input.versions, 'rtbench:workers-side': 'none' });
  const dir = join(input.root, key);
  const done = (built: boolean): NextBuild => ({ key, dir, worker: join(dir, WORKER_BUNDLE, WORKER_MODULE), nodeServer: join(dir, 'serve.mjs'), built, workers });
  const shown = shownPath(dir);
  if (existsSync(dir)) {
    const why = cachedBuildProblem(dir);
    if (!why) return done(false);
    if (why.owner) throw new AppBuildFailed(`the cached build ${dir} ${why.problem}: rtbench will not run a build someone else could change; remove it (as its owner or root)`);
    say(`the cached build ${shown} ${why.problem}: building it again`);
  }
  const v = input.versions;
  say(`building the app with next ${v.next ?? '?'}${workers ? ` and @opennextjs/cloudflare ${v['@opennextjs/cloudflare'] ?? '?'}` : ''} into ${shown} (once; cached after)`);
  const log = `${dir}.log`;
  const started = performance.now();
  writeFileSync(log, '');
  buildAfresh(dir, () => {
    copyAppFiles(input.appDir, dir, NOT_COPIED);
    const modules = join(dir, 'node_modules');
    const adapterModules = input.adapterModules ?? modules;
    linkedTree(input.modules, modules);
    if (input.defaultWrangler && !WRANGLER_CONFIGS.some((f) => existsSync(join(dir, f)))) writeFileSync(join(dir, 'wrangler.jsonc'), input.defaultWrangler);
    // Standalone output, what OpenNext's own build asks of next build (setStandaloneBuildMode); its root is left to
    // Next.js, which finds it by the lockfile as OpenNext does (the app's own, copied in, or one above the cache).
    runBuildStep('next build', input.node, join(modules, 'next', 'dist', 'bin', 'next'), ['build'], dir, log, {
      NEXT_PRIVATE_STANDALONE: 'true',
      ...(input.googleFonts ? { NEXT_FONT_GOOGLE_MOCKED_RESPONSES: GOOGLE_FONTS_STAND_IN } : {}),
    });
    if (workers) buildWorker(dir, adapterModules, input.node, log);
    writeFileSync(join(dir, 'serve.mjs'), input.server(dir, join(modules, 'next')));
  });
  say(`built in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return done(true);
}
