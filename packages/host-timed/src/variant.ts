/**
 * How the host starts a plain program (not the in-runtime loop's bundle) on a
 * variant: the runner's binary, its isolation arguments and the variant's
 * translated engine flags, with a clean environment, as the runners do for jobs.
 */
import type { RuntimeKind } from '@rtbench/core';
import type { BundleTarget, RuntimeTarget, TranslatedFlags } from '@rtbench/runtime-kit';
import { DENO_RUN_ARGS } from '@rtbench/runtime-deno';
import { BUN_RUN_ARGS } from '@rtbench/runtime-bun';

/** What the host-timed code needs of a resolved variant. */
export interface HostVariant {
  id: string;
  runtime: RuntimeKind;
  target: RuntimeTarget;
  flags: TranslatedFlags;
  bundle: BundleTarget;
}

export interface ProgramCommand {
  command: string;
  args: string[];
  env: Record<string, string | undefined>;
}

export interface ProgramOptions {
  /** A directory for the runtime's own cache between runs; absent: no cache at all. */
  cacheDir?: string;
  /** Let the program listen on loopback (deno needs the permission). */
  net?: boolean;
}

/** The command that runs `script` on a node, deno or bun variant (workerd is configured, not commanded). */
export function programCommand(v: HostVariant, script: string, options: ProgramOptions = {}): ProgramCommand {
  const base = { PATH: process.env.PATH, HOME: process.env.HOME };
  switch (v.runtime) {
    case 'node':
      // NODE_COMPILE_CACHE: V8's code cache on disk (node >= 22.1); without it every start compiles from source.
      return { command: v.target.binary, args: [...v.flags.args, script], env: { ...base, ...(options.cacheDir ? { NODE_COMPILE_CACHE: options.cacheDir } : {}), ...v.flags.env } };
    case 'deno': {
      // DENO_RUN_ARGS carries --no-code-cache; with a cache directory deno keeps its V8 code cache there instead.
      const runArgs = options.cacheDir ? DENO_RUN_ARGS.filter((a) => a !== '--no-code-cache') : [...DENO_RUN_ARGS];
      const net = options.net ? ['--allow-net=127.0.0.1'] : [];
      const denoDir = options.cacheDir ? { DENO_DIR: options.cacheDir } : {};
      return { command: v.target.binary, args: [...runArgs, ...net, ...v.flags.args, script], env: { ...base, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1', ...denoDir, ...v.flags.env } };
    }
    case 'bun':
      // Bun caches the transpiled source of large files (not bytecode); '0' turns that cache off.
      return {
        command: v.target.binary,
        args: [...BUN_RUN_ARGS, ...v.flags.args, script],
        env: { ...base, NO_COLOR: '1', BUN_RUNTIME_TRANSPILER_CACHE_PATH: options.cacheDir ?? '0', ...v.flags.env },
      };
    case 'workerd':
      throw new Error('workerd runs a config, not a script: use the workerd start-up or server functions');
  }
}
