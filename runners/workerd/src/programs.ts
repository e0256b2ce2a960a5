/**
 * Plain programs on workerd (host-timed cases): a module served as the
 * config's worker (start-up to the first response, servers under load), and
 * a server whose worker loader loads the program as a new worker per request
 * (isolate start on its own, without workerd's process start and config
 * parsing; an experimental binding, `workerd serve --experimental`).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkersCompatibility } from '@rtbench/core/request';
import type { RuntimeTarget, ServedProgram, TranslatedFlags } from '@rtbench/runtime-kit';
import { guardDir, removeGuardedDir } from '@rtbench/process';
import { capnpString, compatibilityDateFor, COMPATIBILITY_FLAGS, SOCKET_NAME } from './config.ts';
import { JOB_DIR_PREFIX, workerdEnv, writeJobConfig } from './run-job.ts';
import { INSPECTOR_OPTION, startWorkerd } from './server.ts';

function served(binary: string, dir: string, configPath: string, serveOptions: readonly string[]): ServedProgram {
  const server = startWorkerd(binary, configPath, workerdEnv({}), dir, 8_000, undefined, serveOptions);
  return {
    pid: server.pid,
    listening: server.listening,
    output: server.output,
    exited: server.exited,
    kill: () => server.kill(),
    get killed() {
      return server.killed;
    },
    cleanup: () => removeGuardedDir(dir),
    inspector: server.inspector,
  };
}

/** A fresh `workerd serve` of a module that sets globalThis[HANDLER_KEY] (the config imports it and exports the handler), with the program's own compatibility date and flags when it has them. */
export function serveModule(target: RuntimeTarget, flags: TranslatedFlags, modulePath: string, options: { compatibility?: WorkersCompatibility; inspector?: boolean } = {}): ServedProgram {
  const { dir, configPath } = writeJobConfig({ bundle: { path: modulePath }, v8Flags: flags.args, workerdVersion: target.version, env: flags.env, ...(options.compatibility ? { compatibility: options.compatibility } : {}) });
  return served(target.binary, dir, configPath, options.inspector ? [INSPECTOR_OPTION] : []);
}

/** The running server's worker: loads the program as a new worker per request to /load, a tiny one for /warm. */
const LOADER_MODULE = `
let n = 0;
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const warm = url.pathname === '/warm';
    const code = warm ? 'export default { fetch: () => new Response("warm") };' : env.PROGRAM;
    const worker = env.LOADER.get(\`w\${++n}\`, () => ({
      compatibilityDate: env.COMPATIBILITY_DATE,
      compatibilityFlags: JSON.parse(env.COMPATIBILITY_FLAGS),
      mainModule: 'program.js',
      modules: { 'program.js': code },
      globalOutbound: null,
    }));
    return worker.getEntrypoint().fetch('http://program/');
  },
};
`;

function loaderConfig(programRelativePath: string, target: RuntimeTarget, flags: TranslatedFlags): string {
  const date = compatibilityDateFor(target.version);
  const list = (items: readonly string[]): string => `[${items.map(capnpString).join(', ')}]`;
  return `# Written by rtbench: one server whose worker loads the program as a new worker per request.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [ (name = "loader", worker = .loader) ],
  sockets = [ (name = ${capnpString(SOCKET_NAME)}, address = "127.0.0.1:0", http = (), service = "loader") ],
  v8Flags = ${list(flags.args)},
);

const loader :Workerd.Worker = (
  modules = [ (name = "loader.mjs", esModule = ${capnpString(LOADER_MODULE)}) ],
  compatibilityDate = ${capnpString(date)},
  compatibilityFlags = ${list(COMPATIBILITY_FLAGS)},
  bindings = [
    (name = "LOADER", workerLoader = ()),
    (name = "PROGRAM", text = embed ${capnpString(programRelativePath)}),
    (name = "COMPATIBILITY_DATE", text = ${capnpString(date)}),
    (name = "COMPATIBILITY_FLAGS", text = ${capnpString(JSON.stringify(COMPATIBILITY_FLAGS))}),
  ],
);
`;
}

/** A running workerd whose worker loads the program (`export default { fetch }`) as a new worker on GET /load. */
export function serveLoader(target: RuntimeTarget, flags: TranslatedFlags, modulePath: string): ServedProgram {
  const dir = mkdtempSync(join(tmpdir(), `${JOB_DIR_PREFIX}${process.pid}-`));
  // The warden removes it if the host dies before cleanup().
  guardDir(dir);
  writeFileSync(join(dir, 'program.mjs'), readFileSync(modulePath));
  const configPath = join(dir, 'config.capnp');
  writeFileSync(configPath, loaderConfig('program.mjs', target, flags));
  return served(target.binary, dir, configPath, ['--experimental']);
}
