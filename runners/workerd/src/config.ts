/**
 * The workerd config for one job, written by the plugin (capnp text). It grants
 * the worker one socket on 127.0.0.1 port 0 (workerd binds, the kernel picks
 * the port, --control-fd reports it: no race, never reachable off the host);
 * no outbound network (globalOutbound refuses every fetch() without a DNS
 * lookup, and connect() gets a socket that fails on first use); nodejs_compat;
 * the engine flags as v8Flags; and the variant's environment variables as text
 * bindings (process.env), nothing else: a worker sees neither workerd's nor
 * rtbench's environment. Each grant's reason: runners/workerd/README.md.
 */
import type { WorkersCompatibility } from '@rtbench/core/request';
import { HANDLER_KEY } from './handoff.ts';

/**
 * Fixed so that a workerd upgrade changes the engine, not the API semantics
 * under the benchmark. It is the last date before nodejs_compat became a
 * default, so the flag is stated rather than implied. A workerd
 * older than this date gets its own date instead (it refuses later ones).
 */
export const COMPATIBILITY_DATE = '2026-08-01';
export const COMPATIBILITY_FLAGS = ['nodejs_compat'];

/** The socket name workerd reports on the control fd. */
export const SOCKET_NAME = 'http';

export function compatibilityDateFor(workerdVersion: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(workerdVersion) && workerdVersion < COMPATIBILITY_DATE ? workerdVersion : COMPATIBILITY_DATE;
}

/**
 * A capnp text literal. JSON's escapes for quotes, backslashes, \n and \t are
 * capnp's too; other control characters (JSON would write \u00XX) are refused.
 */
export function capnpString(text: string): string {
  if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(text)) throw new Error(`cannot put ${JSON.stringify(text)} in a workerd config: it holds control characters`);
  return JSON.stringify(text);
}

const DENY_MODULE = [
  'export default {',
  '  fetch(request) { throw new Error(`rtbench: the benchmark has no outbound network (fetch ${request.url})`); },',
  '  connect() { throw new Error("rtbench: the benchmark has no outbound network (connect)"); },',
  '};',
].join('\n');

export interface ConfigOptions {
  /** Path of the suite bundle relative to the config file's directory. */
  bundleRelativePath: string;
  v8Flags: readonly string[];
  workerdVersion: string;
  /** The variant's environment, shown to the worker as process.env. */
  env: Readonly<Record<string, string>>;
  /** The program's own compatibility date and flags (a wrangler project's), instead of rtbench's. */
  compatibility?: WorkersCompatibility;
}

/** The name the worker's config gives the bundle's module: stacks and profiles name it so. */
export const BUNDLE_MODULE = 'bundle.mjs';

export function workerdConfig(options: ConfigOptions): string {
  const date = options.compatibility?.date ?? compatibilityDateFor(options.workerdVersion);
  const flags = options.compatibility ? options.compatibility.flags : COMPATIBILITY_FLAGS;
  const main = `import './${BUNDLE_MODULE}';\nexport default globalThis.${HANDLER_KEY};\n`;
  const list = (items: readonly string[]): string => `[${items.map(capnpString).join(', ')}]`;
  const bindings = Object.entries(options.env);
  return `# Written by rtbench for one job; see runners/workerd/README.md.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "rtbench", worker = .benchmark),
    (name = "no-network", worker = .noNetwork),
  ],
  sockets = [ (name = ${capnpString(SOCKET_NAME)}, address = "127.0.0.1:0", http = (), service = "rtbench") ],
  v8Flags = ${list(options.v8Flags)},
);

const benchmark :Workerd.Worker = (
  modules = [
    (name = "main.mjs", esModule = ${capnpString(main)}),
    (name = ${capnpString(BUNDLE_MODULE)}, esModule = embed ${capnpString(options.bundleRelativePath)}),
  ],
  compatibilityDate = ${capnpString(date)},
  compatibilityFlags = ${list(flags)},
  bindings = [
${bindings.map(([name, value]) => `    (name = ${capnpString(name)}, text = ${capnpString(value)}),`).join('\n')}
  ],
  globalOutbound = "no-network",
);

const noNetwork :Workerd.Worker = (
  modules = [ (name = "deny.mjs", esModule = ${capnpString(DENY_MODULE)}) ],
  compatibilityDate = ${capnpString(date)},
);
`;
}
