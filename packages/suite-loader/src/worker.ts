/**
 * A Worker brought as it is: a Workers module (`export default { fetch }`)
 * or a wrangler project (a folder, or its wrangler.json/.jsonc/.toml). It
 * becomes a request suite (core request.ts) built from the file, so every
 * option of `bench` that applies works on it with no second path: each
 * `--request` is a case (a `--requests` file's mix is one), served unchanged
 * by each runtime's own server. The handler is wrapped so it is called with
 * the project's vars as env on every runtime; the project's define is
 * written into its bundle and its compatibility date and flags go to the
 * Workers runtime; its static assets are embedded in the bundle and served
 * in front of it (assets-router.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { suiteNameFor } from '@rtbench/adapters/suite-name';
import type { RequestDeclaration } from '@rtbench/core';
import type { WorkersCompatibility } from '@rtbench/core/request';
import { storeNamedFile } from '@rtbench/host/programs';
import { IMPORTS_SUITE_API } from './brought-file.ts';
import { UsageError } from '@rtbench/core/usage-error';
import { cacheDir, rtbenchModule } from './places.ts';
import { assetFiles, assetsNote, type StaticAssets } from './static-assets.ts';
import { FRAMEWORKS } from './apps/all.ts';
import { frameworkAppAt } from './apps/framework-app.ts';
import type { SuiteLocation, WorkerRequests } from './suite-location.ts';
import { readWranglerProject, wranglerConfigAt, type WranglerProject } from './wrangler-config.ts';
import { answerRules, parseRequestLine, readRequestsFile, requestName, type AnswerRules } from './worker-requests.ts';

const CORE = rtbenchModule('@rtbench/core');
const SAME_WORK = rtbenchModule('@rtbench/core/same-work');
const ASSETS_ROUTER = join(import.meta.dirname, 'assets-router.ts');
const SCRIPT = /\.[cm]?[jt]sx?$/;

const HAS_DEFAULT_EXPORT = /\bexport\s+default\b|\bexport\s*\{[^}]*\bas\s+default\b/;

function scriptSource(path: string): string | undefined {
  const full = resolve(path);
  if (!SCRIPT.test(full) || !existsSync(full) || !statSync(full).isFile()) return undefined;
  return readFileSync(full, 'utf8');
}

/**
 * Is this a Workers module file, a wrangler project or config, or a
 * framework app's folder (apps/framework-app.ts)? A script
 * with a default export that is not a suite of rtbench's own: whether that
 * export has a fetch handler is decided where it loads (the handler
 * wrapper), not from the file's words, since `export default app` names an
 * object whose fetch is defined elsewhere.
 */
export function isWorkerTarget(path: string): boolean {
  if (wranglerConfigAt(path) || frameworkAppAt(path, FRAMEWORKS)) return true;
  const source = scriptSource(path);
  return source !== undefined && HAS_DEFAULT_EXPORT.test(source) && !IMPORTS_SUITE_API.test(source);
}

/** A Worker as a class (a WorkerEntrypoint): its fetch is called by the Workers runtime on an instance it makes, which no other runtime can. */
const CLASS_ENTRYPOINT = /\bexport\s+default\s+class\b/;

/** A module with no default export, or whose default export is a class: refused in one line. */
function checkFetchExport(file: string, shown: string): void {
  const source = readFileSync(file, 'utf8');
  if (!HAS_DEFAULT_EXPORT.test(source)) throw new UsageError(`${shown} has no default export: a Worker module is \`export default { fetch(request, env, ctx) { … } }\``);
  if (CLASS_ENTRYPOINT.test(source)) throw new UsageError(`${shown}: its default export is a class (a WorkerEntrypoint): rtbench serves a Worker whose default export is an object with fetch(request, env, ctx), such as \`export default { fetch: (request, env, ctx) => … }\``);
}

/**
 * The module each runtime serves: the Worker's default export, called with
 * the project's vars as env. Whether it has a fetch handler is checked when
 * it loads, so a fetch on an object's prototype (a router instance) counts,
 * and a module without one stops that runtime's server with one line.
 * With static assets (`assets`: the module that embeds them), the assets
 * answer in front of it and its env holds their binding; with no main, the
 * assets alone answer. A Worker served by the Workers runtime alone (a
 * framework app's) is also given that env as `cloudflare:workers`' env
 * (withEnv), which a framework's modules import: the runtime's own holds
 * only rtbench's bindings.
 */
function handlerSource(main: string | undefined, shown: string, vars: Record<string, unknown>, assets?: { module: string; static: StaticAssets }, preludes: readonly string[] = [], workersOnly = false): string {
  const call = (target: string): string[] =>
    workersOnly
      ? ["import * as workers from 'cloudflare:workers';", `export default { fetch: (request, _env, ctx) => (typeof workers.withEnv === 'function' ? workers.withEnv(env, () => ${target}.fetch(request, env, ctx)) : ${target}.fetch(request, env, ctx)) };`]
      : [`export default { fetch: (request, _env, ctx) => ${target}.fetch(request, env, ctx) };`];
  const worker = main
    ? [
        // Modules the Worker's own code finds in place when it loads (ES modules run in the order they are imported).
        ...preludes.map((prelude) => `import ${JSON.stringify(prelude)};`),
        `import worker from ${JSON.stringify(main)};`,
        `if (typeof worker?.fetch !== 'function') throw new Error(${JSON.stringify(`${shown}: its default export has no fetch handler: a Worker module is \`export default { fetch(request, env, ctx) { … } }\``)} + " (it is " + (worker === null ? 'null' : typeof worker) + ")");`,
      ]
    : [];
  if (!assets) return [...worker, `const env = Object.freeze(${JSON.stringify(vars)});`, ...call('worker'), ''].join('\n');
  const binding = assets.static.binding;
  return [
    ...worker,
    `import files from ${JSON.stringify(assets.module)};`,
    `import { withAssets } from ${JSON.stringify(ASSETS_ROUTER)};`,
    `const served = withAssets(files, ${JSON.stringify(assets.static.routing)}${main ? ', worker' : ''});`,
    `const env = Object.freeze({ ...${JSON.stringify(vars)}${binding ? `, ${JSON.stringify(binding)}: served.binding` : ''} });`,
    ...call('served'),
    '',
  ].join('\n');
}

/** A JSON text in which Uint8Array bodies are `{ "__b64": … }`, revived by the entry. */
function declarationsJson(declarations: readonly RequestDeclaration[]): string {
  return JSON.stringify(declarations, (_key, value: unknown) => (value instanceof Uint8Array ? { __b64: Buffer.from(value).toString('base64') } : value));
}

/** A wrangler project's Worker as rtbench serves it: its handler wrapper (vars as env, assets in front), and what is said of it before the run. */
export interface ProjectWorker {
  handler: string;
  define?: Readonly<Record<string, string>>;
  compatibility?: WorkersCompatibility;
  notes: string[];
  /** Said only when the Workers runtime runs (SuiteLocation.servedModuleNotes). */
  servedModuleNotes: string[];
}

/** How the Workers runtime serves a project or an app: with its config's compatibility date and flags (`config`: the file that states them, or who does). */
export function servedWithCompatibility(config: string, compatibility: WorkersCompatibility): string {
  return `the Workers runtime serves it with ${config}'s compatibility date ${compatibility.date ?? "(none: rtbench's)"} and flags ${compatibility.flags.join(', ') || '(none)'}`;
}

/** The handler wrapper of a Worker module (`main`) or of a wrangler project's Worker, written to the program cache under `name` (`workersOnly`: served by the Workers runtime alone). */
export function projectWorker(name: string, main: string | undefined, shown: string, project?: WranglerProject, preludes: readonly string[] = [], workersOnly = false): ProjectWorker {
  const notes: string[] = [];
  const configName = project ? basename(project.configFile) : undefined;
  if (main) checkFetchExport(main, shown);
  if (project) notes.push(...project.notes);
  if (project?.build) notes.push(`${configName}'s build command (${project.build}) is not run: rtbench bundles ${main ? `main (${basename(main)})` : 'its assets'} as ${main ? 'it is' : 'they are'}`);
  const compatibility: WorkersCompatibility | undefined = project && (project.compatibilityDate || project.compatibilityFlags.length) ? { ...(project.compatibilityDate ? { date: project.compatibilityDate } : {}), flags: project.compatibilityFlags } : undefined;
  const servedModuleNotes = [
    compatibility && configName
      ? `${servedWithCompatibility(configName, compatibility)}; the other runtimes have no such setting`
      : `the Workers runtime serves it with rtbench's compatibility date and flags (a wrangler project's are its own: rtbench run <project folder>)`,
  ];
  const key = createHash('sha256').update(JSON.stringify([main, project ?? null, preludes, workersOnly])).digest('hex').slice(0, 12);
  let assets: { module: string; static: StaticAssets } | undefined;
  if (project?.assets) {
    const { files, bytes } = assetFiles(project.assets, configName!);
    const text = `export default ${JSON.stringify(files)};\n`;
    assets = { module: storeNamedFile(join(cacheDir, 'brought', `${name}-${createHash('sha256').update(text).digest('hex').slice(0, 12)}-assets.mjs`), text), static: project.assets };
    notes.push(assetsNote(project.assets, configName!, Object.keys(files).length, bytes, workersOnly));
  }
  // Called with the project's vars as env on every runtime (each runtime's server would otherwise pass its own).
  const handler = storeNamedFile(join(cacheDir, 'brought', `${name}-${key}-worker.mjs`), handlerSource(main, shown, project?.vars ?? {}, assets, preludes, workersOnly));
  return { handler, ...(project && Object.keys(project.define).length ? { define: project.define } : {}), ...(compatibility ? { compatibility } : {}), notes, servedModuleNotes };
}

/** The request part of each declaration the command line asks for (the handler and what serves it are the caller's), and how answers are compared. */
interface AskedRequests {
  declarations: Pick<RequestDeclaration, 'name' | 'mix' | 'requests' | 'compareHeaders'>[];
  /** --normalize's patterns, and a --requests file's. */
  normalize?: readonly string[];
  notes: string[];
}

/** The cases --request or --requests ask of a Worker or an app (GET / when neither is given, said in a note). */
export function askedRequests(given: WorkerRequests): AskedRequests {
  const notes: string[] = [];
  let rules: AnswerRules = answerRules('--normalize: ', [], given.normalize);
  let declarations: AskedRequests['declarations'];
  if (given.requests !== undefined) {
    if (given.request.length) throw new UsageError('use either --request (each request its own case) or --requests <file> (one mix), not both');
    const file = readRequestsFile(given.requests);
    rules = answerRules('--normalize: ', file.compareHeaders, [...(file.normalize ?? []), ...(rules.normalize ?? [])]);
    declarations = [{ name: file.name, mix: file.mix, ...(file.requests !== undefined ? { requests: file.requests } : {}), ...(rules.compareHeaders ? { compareHeaders: rules.compareHeaders } : {}) }];
  } else {
    const lines = given.request.length ? given.request : ['GET /'];
    if (!given.request.length) notes.push('no --request given: each process is sent GET / (--request "GET /path", repeatable, or --requests <file> for a mix)');
    const shapes = lines.map((line) => parseRequestLine(line));
    const names = shapes.map(requestName);
    const twice = names.find((n, i) => names.indexOf(n) !== i);
    if (twice) throw new UsageError(`--request ${twice} is given twice: each request is its own case`);
    declarations = shapes.map((request, i) => ({ name: names[i]!, mix: [{ name: names[i]!, weight: 1, request }] }));
  }
  if (rules.normalize) notes.push(`each response's matches of ${rules.normalize.map((p) => `/${p}/`).join(', ')} are replaced by one mark before it is compared`);
  return { declarations, ...(rules.normalize ? { normalize: rules.normalize } : {}), notes };
}

/** The file of claims a project or an app folder states beside its code (`export const claims = [claim(…)]`, docs/claims.md), as `rtbench claims <folder>` checks them. */
const CLAIMS_FILES = ['rtbench.claims.ts', 'rtbench.claims.mts', 'rtbench.claims.mjs', 'rtbench.claims.js'];

/** The brought suite's entry re-exports the claims file of `dir`, when it has one: its line, and the note that says so. */
export function claimsExport(dir: string): { line: string; note: string } | undefined {
  const file = CLAIMS_FILES.map((name) => join(dir, name)).find((f) => existsSync(f));
  return file ? { line: `export { claims } from ${JSON.stringify(file)};`, note: `its claims are ${basename(file)}'s (rtbench claims ${dir} checks them)` } : undefined;
}

/** Whether `path` is an entry storeBroughtEntry wrote: a request suite of rtbench's own (its imports are rtbench's files by path), found again by it (a claims run plans each run by its suite's entry). */
export function isStoredEntry(path: string): boolean {
  const full = resolve(path);
  return full.startsWith(join(cacheDir, 'brought') + sep) && full.endsWith('.ts') && existsSync(full);
}

/** Writes a brought suite's entry (its source) to the program cache, with the lines said before its run (`servedModuleNotes`: only when the Workers runtime runs). */
export function storeBroughtEntry(name: string, source: string, notes: readonly string[], servedModuleNotes: readonly string[] = []): SuiteLocation {
  const entry = storeNamedFile(join(cacheDir, 'brought', `${name}-${createHash('sha256').update(source).digest('hex').slice(0, 12)}.ts`), source);
  return { name, entry, notes: [...notes], ...(servedModuleNotes.length ? { servedModuleNotes: [...servedModuleNotes] } : {}) };
}

/** The Worker as a request suite served `given` requests: its handler wrapper and its entry, written to the program cache, and the lines said before its run. */
export function locateWorker(path: string, given: WorkerRequests = { request: [] }): SuiteLocation {
  const config = wranglerConfigAt(path);
  const project = config ? readWranglerProject(config) : undefined;
  const main = project ? project.main : resolve(path);
  const shown = project ? `${basename(config!)}${main ? `: main ${basename(main)}` : ''}` : path;
  const name = project ? suiteNameFor(project.name) : suiteNameFor(main!);
  const worker = projectWorker(name, main, shown, project);
  const asked = askedRequests(given);
  const shared = { handler: worker.handler, ...(worker.define ? { define: worker.define } : {}), ...(worker.compatibility ? { compatibility: worker.compatibility } : {}) };
  const declarations: RequestDeclaration[] = asked.declarations.map((d) => ({ ...d, ...shared }));
  // A project's folder may state claims of its requests (a single module has no folder of its own).
  const claims = project ? claimsExport(dirname(project.configFile)) : undefined;
  const source = [
    ...(claims ? [claims.line] : []),
    `import { requestSuite } from ${JSON.stringify(CORE)};`,
    `const declarations = JSON.parse(${JSON.stringify(declarationsJson(declarations))}, (_key, value) => (value && typeof value === 'object' && typeof value.__b64 === 'string' ? new Uint8Array(Buffer.from(value.__b64, 'base64')) : value));`,
    // The suite's normalize, made from the patterns in the entry (a function cannot travel as JSON).
    ...(asked.normalize
      ? [`import { patternNormalizer } from ${JSON.stringify(SAME_WORK)};`, `const normalize = patternNormalizer(${JSON.stringify(asked.normalize)});`, `export default requestSuite(${JSON.stringify(name)}, declarations.map((d) => ({ ...d, normalize })));`]
      : [`export default requestSuite(${JSON.stringify(name)}, declarations);`]),
    '',
  ].join('\n');
  return storeBroughtEntry(name, source, [...worker.notes, ...asked.notes, ...(claims ? [claims.note] : [])], worker.servedModuleNotes);
}
