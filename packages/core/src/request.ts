/**
 * Request-shaped cases: a handler in the Workers module shape
 * (`export default { fetch(request, env, ctx) }`), written once and served
 * unchanged by each runtime's own server, and the requests sent to it, drawn
 * from a declared mix with weights. The host reads the CPU each request cost
 * from the runtime's threads; one declaration yields one case per figure
 * (the JavaScript thread, all threads, the server with an empty handler), so
 * each figure gets the table's statistics and the paired verdicts.
 */
import { CPU_THREADS, type CpuThreads } from './cpu-per-request.ts';
import { seededRandom } from './random.ts';
import { serverPermissionsProblem, type ServerPermissions } from './server-permissions.ts';
import { caseId, type CaseSpec, type Params, type SuiteDefinition } from './suite.ts';

/** One request as the host sends it. */
export interface RequestShape {
  readonly method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path and query, starting with "/". */
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
}

/** A kind of request in the mix: drawn with probability weight / (the weights' sum). */
export interface RequestKind {
  readonly name: string;
  readonly weight: number;
  /** The request, or a function that makes one from the draw's random numbers (a size that varies within the kind). */
  readonly request: RequestShape | ((random: () => number) => RequestShape);
}

/** One response as a suite's `normalize` sees it: the request it answered, its status and content type, its body as text. */
export interface ResponseToNormalize {
  readonly request: RequestShape;
  readonly status: number;
  readonly contentType?: string;
  readonly body: string;
}

/** The body a response is compared by: the text with what masking cannot see made plain (a random order, a value with no changing shape). */
export type ResponseNormalizer = (response: ResponseToNormalize) => string;

export interface RequestDeclaration {
  readonly group?: string;
  readonly name: string;
  readonly params?: Params;
  /**
   * A module whose default export is `{ fetch(request, env, ctx) }`: bundled per runtime and served by its own server.
   * A function: the module made for an arm's packages (a framework's app built with the versions the arm pins).
   */
  readonly handler: string | ((packages: ArmPackages) => string);
  readonly mix: readonly RequestKind[];
  /** Requests each fresh process serves, one at a time (the first is the process's first request). */
  readonly requests?: number;
  /**
   * Run by the host on each response's body before its changing spans are
   * masked (same work, docs/requests.md): for what masking cannot see. Not
   * used under --same-work strict.
   */
  readonly normalize?: ResponseNormalizer;
  /**
   * Response headers compared besides the status, content type and
   * location, by name (`['x-cache', 'etag']`): their values must be the
   * same, byte for byte, in every variant's answers, or the work differs.
   */
  readonly compareHeaders?: readonly string[];
  /** Identifiers replaced by expressions when the handler is bundled (esbuild's define, a wrangler project's `define`). */
  readonly define?: Readonly<Record<string, string>>;
  /** The Workers compatibility date and flags the handler was written for (a wrangler project's): workerd serves it with them. */
  readonly compatibility?: WorkersCompatibility;
  /**
   * A server the suite brings instead of `handler` bundled with rtbench's
   * wrapper (a framework served by its own server, a Node.js-style
   * program): one for every runtime whose plug-in runs programs; a runtime
   * that is itself the server (its plug-in serves modules) serves `handler`.
   * Undefined serves `handler` everywhere.
   */
  readonly server?: (packages: ArmPackages) => BroughtServer | undefined;
  /**
   * Why a runtime that is itself the server (the Workers runtime) cannot
   * serve `handler` (a framework app whose Workers edition cannot be built),
   * in one line: its cases are unsupported there and the other runtimes
   * still run; undefined when it can.
   */
  readonly handlerUnsupported?: () => string | undefined;
  /**
   * Packages the declaration installs itself in `prepare` (a framework, its
   * adapter), which an arm may pin as it pins a package the suite imports
   * (`next@15.5.29`): the version is checked against the registry, then
   * handed to `prepare`, `server` and `handler`.
   */
  readonly installs?: readonly string[];
  /**
   * Why an arm's versions of `installs` cannot be built (a package the
   * suite keeps declares a peer range the version is outside of), in one
   * line, or undefined when they can: asked of every arm before any arm's
   * `prepare`, so a refusal runs and installs nothing.
   */
  readonly refusePackages?: (packages: ArmPackages) => string | undefined;
  /**
   * Work done before a run first reads `handler` or `server` (a framework's
   * packages installed, its app built), once per arm's packages: the
   * versions the arm pins of `installs`, or none (the suite's own). Awaited
   * by the host before anything runs, so listing the suite's cases does none
   * of it. `serves` says what the runtimes of the arms with those packages
   * serve of it (absent: both), so work only the other needs is not done (a
   * framework app builds only the editions its runtimes serve). It returns
   * the packages it installed, which the run records for the arm; what it
   * throws is the arm's failure, said in one line.
   */
  readonly prepare?: (packages: ArmPackages, serves?: readonly Served[]) => Promise<readonly InstalledPackage[] | void>;
}

/** What a runtime serves of a declaration: the server it brings (a runtime whose plug-in runs programs), or its handler (one that serves modules). */
export type Served = 'server' | 'handler';

/** What a runtime serves, by its plug-in's kind of programs. */
export const servedBy = (programs: { readonly kind: string }): Served => (programs.kind === 'process' ? 'server' : 'handler');

/**
 * The versions of packages an arm has (name → version): those it pins, or
 * those its suite installed for it as its record holds them; empty for an
 * arm that pins none. A declaration takes the ones it knows.
 */
export type ArmPackages = Readonly<Record<string, string>>;

/** A package a declaration's `prepare` installed, as the run records it for the arm. */
export interface InstalledPackage {
  readonly name: string;
  readonly version: string;
  /** The package's folder. */
  readonly dir: string;
  /** The registry's integrity of its tarball, as npm checked it. */
  readonly integrity?: string;
  /** sha256 proving the install it is part of (the set's, for packages installed together). */
  readonly sha256: string;
  /** The set it was installed in, as one tree with its dependencies (the suite's label). */
  readonly set?: string;
}

/** The handler module a declaration serves for an arm's packages. */
export function handlerOf(d: RequestDeclaration, packages: ArmPackages): string {
  return typeof d.handler === 'function' ? d.handler(packages) : d.handler;
}

/**
 * A server a suite brings: a program the runtime runs as it is (it prints
 * `listening <port>` first and answers rtbench's reserved paths, as
 * host-timed's request wrapper does), or why the runtime cannot serve it.
 * `permissions`: what the program needs of a runtime that grants access by
 * permission (deno: a framework's server reads its build from disk); the
 * other runtimes ignore it (server-permissions.ts).
 */
export type BroughtServer = { readonly program: string; readonly permissions?: ServerPermissions } | { readonly unsupported: string };

/** Why a server a declaration brings cannot run as declared (its permissions), in one clause; undefined when it can or there is none. */
export function broughtServerProblem(brought: BroughtServer | undefined): string | undefined {
  return brought && 'program' in brought && brought.permissions !== undefined ? serverPermissionsProblem(brought.permissions) : undefined;
}

/** A Workers compatibility date (YYYY-MM-DD) and flags (`nodejs_compat`, …). */
export interface WorkersCompatibility {
  readonly date?: string;
  readonly flags: readonly string[];
}

export const DEFAULT_REQUESTS_PER_PROCESS = 200;

/** The most requests one process is sent: each is held as a figure and a digest, and a round must end within its time bound. */
export const MAX_REQUESTS_PER_PROCESS = 10_000;

/** Which CPU a request case's samples are: the figures one declaration yields (cpu-per-request.ts). */
export type RequestFigure = CpuThreads;

/** One case of a request suite: one figure of one declaration. */
export interface RequestCaseSpec extends CaseSpec {
  readonly requestShaped: true;
  readonly declaration: RequestDeclaration;
  readonly figure: RequestFigure;
  readonly metric: { readonly name: string; readonly unit: 'ms'; readonly direction: 'lower-is-better' };
}

export function isRequestCaseSpec(c: { readonly id: string }): c is RequestCaseSpec {
  return (c as Partial<RequestCaseSpec>).requestShaped === true;
}

export interface RequestSuite extends SuiteDefinition {
  readonly declarations: readonly RequestDeclaration[];
  cases(): RequestCaseSpec[];
}

function notInRuntime(): never {
  throw new Error('a request case is served by the runtime and measured by the host, not run in the loop');
}

/** Headers compared at most per declaration: each is a key of every answer learned. */
export const MOST_COMPARED_HEADERS = 16;

/** A header name as HTTP writes one (a token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Headers always compared (content type, location: as a media type, the
 * server's own origin taken off), and those each runtime's server writes
 * its own way whatever the handler says: none can be declared.
 */
const NOT_DECLARED: Readonly<Record<string, string>> = {
  'content-type': 'is always compared (as a media type)',
  location: "is always compared (the server's own origin taken off)",
  date: "is the server's clock, not the handler's answer",
  'content-length': "is written by each runtime's server its own way (or a chunked body has none)",
  'transfer-encoding': "is written by each runtime's server its own way",
  connection: "is the connection's, not the handler's answer",
  'keep-alive': "is the connection's, not the handler's answer",
};

/** Why a list of header names cannot be compared, in one clause; undefined when it can. */
export function compareHeadersProblem(names: readonly string[]): string | undefined {
  if (names.length > MOST_COMPARED_HEADERS) return `${names.length} headers to compare, more than ${MOST_COMPARED_HEADERS}`;
  const seen = new Set<string>();
  for (const name of names) {
    if (!HEADER_NAME.test(name)) return `the header name ${JSON.stringify(name)} is not a token HTTP allows`;
    const lower = name.toLowerCase();
    const why = NOT_DECLARED[lower];
    if (why) return `the header ${lower} ${why}`;
    if (seen.has(lower)) return `the header ${lower} is named twice`;
    seen.add(lower);
  }
  return undefined;
}

function checkDeclaration(d: RequestDeclaration): void {
  if (d.mix.length === 0) throw new Error(`request "${d.name}" declares an empty mix`);
  for (const k of d.mix) if (!(k.weight > 0 && Number.isFinite(k.weight))) throw new Error(`request "${d.name}": the mix's kind "${k.name}" needs a positive weight`);
  // Drawn as a fraction of the total: weights whose sum overflows would draw from nothing.
  if (!Number.isFinite(d.mix.reduce((sum, k) => sum + k.weight, 0))) throw new Error(`request "${d.name}": the mix's weights add up past the largest number`);
  const headers = d.compareHeaders && compareHeadersProblem(d.compareHeaders);
  if (headers) throw new Error(`request "${d.name}": compareHeaders: ${headers}`);
  if (d.requests !== undefined && !(Number.isInteger(d.requests) && d.requests >= 1 && d.requests <= MAX_REQUESTS_PER_PROCESS)) throw new Error(`request "${d.name}": requests must be a whole number from 1 to ${MAX_REQUESTS_PER_PROCESS}`);
}

function casesOf(d: RequestDeclaration): RequestCaseSpec[] {
  return (Object.keys(CPU_THREADS) as RequestFigure[]).map((figure) => {
    const params = { ...d.params, cpu: CPU_THREADS[figure].label };
    return {
      id: caseId(d.group, d.name, params),
      name: d.name,
      group: d.group,
      params,
      body: notInRuntime,
      requestShaped: true,
      declaration: d,
      figure,
      metric: { name: CPU_THREADS[figure].metricName, unit: 'ms', direction: 'lower-is-better' },
    };
  });
}

/** A suite of request-shaped cases. */
export function requestSuite(name: string, declarations: readonly RequestDeclaration[]): RequestSuite {
  const ids = new Set<string>();
  for (const d of declarations) checkDeclaration(d);
  for (const c of declarations.flatMap(casesOf)) {
    if (ids.has(c.id)) throw new Error(`suite "${name}" declares the case "${c.id}" twice`);
    ids.add(c.id);
  }
  return { kind: 'rtbench.suite', name, declarations, cases: () => declarations.flatMap(casesOf) };
}

/** A drawn request: its kind's name and the request. */
export interface DrawnRequest {
  readonly kind: string;
  readonly request: RequestShape;
}

/** A number from the case's id, so every process and runtime draws the same sequence (the same work: equal digests). */
function seedOf(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** The declaration's requests for one process, in order: `count` draws from its mix by weight, the same for every process. */
export function drawRequests(d: RequestDeclaration, count = d.requests ?? DEFAULT_REQUESTS_PER_PROCESS): DrawnRequest[] {
  const random = seededRandom(seedOf(caseId(d.group, d.name, d.params ?? {})));
  // Each weight as a share of the largest: weights near the largest number sum to Infinity, which draws only the last kind.
  const top = Math.max(...d.mix.map((k) => k.weight));
  const shares = d.mix.map((k) => k.weight / top);
  const total = shares.reduce((sum, w) => sum + w, 0);
  const out: DrawnRequest[] = [];
  for (let i = 0; i < count; i++) {
    let x = random() * total;
    const at = shares.findIndex((w) => (x -= w) < 0);
    const kind = d.mix[at < 0 ? d.mix.length - 1 : at]!;
    out.push({ kind: kind.name, request: typeof kind.request === 'function' ? kind.request(random) : kind.request });
  }
  return out;
}
