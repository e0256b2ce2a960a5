/**
 * Programs bundled for one runtime by esbuild, as the plug-ins bundle suites
 * (the plug-in's platform, conditions and main fields), with the arm's
 * process.env.NODE_ENV written in for the bundled packages that read it:
 * the variant's value when it sets one, else what a deployment build writes
 * ("production", host node-env.ts), so an arm that asks for React's
 * development build measures it.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunnableVariant } from './variant.ts';
import type { RuntimePlugin } from '@rtbench/runtime-kit';
import { bundleProgramFor, type BundledProgram } from '@rtbench/host/programs';

/** How the program's default export (a string) is delivered. */
export type Wrapper =
  /** A runtime that runs programs as processes: print it as the first line. */
  | 'print'
  /** A runtime that serves programs: globalThis[handlerKey] answers every request with the string. */
  | 'handler'
  /** A module for a worker loader (isolate start): `export default { fetch }`. */
  | 'worker-module'
  /** A server: the module's default export is the fetch handler, set as globalThis[handlerKey]. */
  | 'server-handler'
  /** A load measurement's fetch handler, served by the runtime's own server in its process (load-server.ts). */
  | 'load-server'
  /** A request case's handler (Workers module shape), served by the runtime's own server in its process (request/listen.ts). */
  | 'request-server'
  /** A request case's handler, wrapped (request/handler.ts) and set as globalThis[handlerKey] for a runtime that serves modules. */
  | 'request-handler';

/** How a start-up program delivers its value on this runtime. */
export function startupWrapper(plugin: RuntimePlugin): Wrapper {
  return plugin.programs.kind === 'process' ? 'print' : 'handler';
}

/** The first statement of a start-up bundle (esbuild's banner): when its evaluation began, on the runtime's clock. */
const EVALUATION_START = 'const __rtbenchEvaluationStart = performance.now();';

/**
 * Start-up programs report their top level's duration on the runtime's own
 * clock: a second line `rtbench-top-level <ms>` (a runtime that runs them as
 * processes), or the response header TOP_LEVEL_HEADER (one that serves them). The first line / the body is the
 * program's value alone, so its digest is the same everywhere.
 */
export const TOP_LEVEL_LINE = 'rtbench-top-level';
export const TOP_LEVEL_HEADER = 'x-rtbench-top-level-ms';

const REQUEST_LISTEN = fileURLToPath(new URL('./request/listen.ts', import.meta.url));
const REQUEST_HANDLER = fileURLToPath(new URL('./request/handler.ts', import.meta.url));
const LOAD_SERVER = fileURLToPath(new URL('./load-server.ts', import.meta.url));
/** The repository: a mapped bundle's sources are named from it (`packages/…` is the harness to a profile, as in suites' bundles). */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');


/** A server of a fetch handler: `serve` of `module` called with it, and with the fetch server the plug-in declares (`fetchServer`), if it declares one. */
function fetchServerSource(program: string, module: string, serve: string, fetchServer: string | undefined): string {
  const imports = `import value from ${JSON.stringify(program)};\nimport { ${serve} } from ${JSON.stringify(module)};\n`;
  if (fetchServer === undefined) return `${imports}${serve}(value);\n`;
  return `${imports}import { serveFetch } from ${JSON.stringify(fetchServer)};\n${serve}(value, serveFetch);\n`;
}

function wrapperSource(program: string, wrapper: Wrapper, plugin: RuntimePlugin): string {
  const programs = plugin.programs;
  const handler = `globalThis[${JSON.stringify(programs.kind === 'server' ? programs.handlerKey : '')}]`;
  if (wrapper === 'server-handler') return `import value from ${JSON.stringify(program)};\n${handler} = value;\n`;
  const fetchServer = programs.kind === 'process' ? programs.fetchServer : undefined;
  // A load measurement's handler (load-server.ts) and a request case's (request/listen.ts), each on the runtime's own server.
  if (wrapper === 'load-server') return fetchServerSource(program, LOAD_SERVER, 'serveUnderLoad', fetchServer);
  if (wrapper === 'request-server') return fetchServerSource(program, REQUEST_LISTEN, 'serveRequests', fetchServer);
  if (wrapper === 'request-handler') return `import value from ${JSON.stringify(program)};\nimport { wrapHandler } from ${JSON.stringify(REQUEST_HANDLER)};\n${handler} = wrapHandler(value);\n`;
  // Start-up programs: the top level has run once the import has; the banner took the time it began.
  const imp = `import value from ${JSON.stringify(program)};\nconst topLevelMs = performance.now() - __rtbenchEvaluationStart;`;
  const respond = `() => new Response(value, { headers: { ${JSON.stringify(TOP_LEVEL_HEADER)}: String(topLevelMs) } })`;
  switch (wrapper) {
    case 'print':
      return `${imp}\nconsole.log(value);\nconsole.log(${JSON.stringify(TOP_LEVEL_LINE)} + " " + topLevelMs);\n`;
    case 'handler':
      return `${imp}\n${handler} = { fetch: ${respond} };\n`;
    case 'worker-module':
      return `${imp}\nexport default { fetch: ${respond} };\n`;
  }
}

/** The NODE_ENV a variant sets in its environment (`node NODE_ENV=development`), or undefined. */
export function variantNodeEnv(v: Pick<RunnableVariant, 'flags'>): string | undefined {
  return v.flags.env.NODE_ENV;
}

/**
 * Bundles `program` for a runtime into `dir`, a folder of rtbench's one
 * program cache (the host package's bundler: owner-only, named by content hash,
 * checked against that hash before every run). `nodeEnv` is the variant's
 * NODE_ENV (undefined: it sets none); the result's nodeEnv says what was written in.
 * `define`: the program's own (a wrangler project's), as esbuild takes it.
 * `mapped`: with an inline source map (a profiled server's: its frames named by source), a program apart from the measured one.
 */
export async function bundleProgram(program: string, plugin: RuntimePlugin, wrapper: Wrapper | 'none', label: string, dir: string, nodeEnv: string | undefined, define?: Readonly<Record<string, string>>, mapped = false): Promise<BundledProgram> {
  const target = plugin.bundle;
  // CommonJS packages (react-dom's node build) call require() for builtins; an ESM bundle has none of its own.
  const requireShim = target.platform === 'node' ? "import { createRequire as __rtbenchCreateRequire } from 'node:module';\nconst require = __rtbenchCreateRequire(import.meta.url);\n" : '';
  const banner = wrapper === 'none' || wrapper === 'server-handler' || wrapper === 'load-server' || wrapper === 'request-server' || wrapper === 'request-handler' ? requireShim : `${EVALUATION_START}\n${requireShim}`;
  return bundleProgramFor(target, {
    entry: wrapper === 'none' ? { file: program } : { contents: wrapperSource(program, wrapper, plugin), resolveDir: process.cwd(), sourcefile: `${label}-entry.js`, loader: 'js' },
    dir,
    stem: label,
    ...(banner ? { banner } : {}),
    nodeEnv: { variantValue: nodeEnv },
    ...(define ? { define: { ...define } } : {}),
    ...(mapped ? { sourceMap: { absWorkingDir: ROOT, sourceRoot: `${ROOT}/` } } : {}),
  });
}
