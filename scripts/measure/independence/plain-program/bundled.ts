/**
 * A plain program, its source held by a script of the folder above, bundled once
 * and run in fresh processes of each runtime the way the runtime's plug-in
 * runs a plain program (RuntimePlugin.programs): a case's call timed outside
 * rtbench's loop. A run's answer is the last line of its stdout, as JSON.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { pluginForSpec } from '@rtbench/runtime-registry';

/** One runtime's way to run the program: its plug-in's environment for a waiting process, and a run with arguments. */
export interface ProgramRunner {
  readonly waitingEnv: Readonly<Record<string, string>> | undefined;
  /** A fresh process with these arguments (and environment beside the plug-in's); its answer, or an error naming the exit. */
  run<T>(args: readonly string[], env?: Readonly<Record<string, string>>): T;
}

export interface BundledProgram {
  /** How `spec`'s plug-in runs the program, with these engine flags in rtbench's syntax (translated as a variant's are). */
  runner(spec: string, flags?: readonly string[]): Promise<ProgramRunner>;
  remove(): void;
}

/** `source` bundled (its imports resolved from the repository) into a folder of its own, which remove() deletes. */
export async function bundledProgram(source: string): Promise<BundledProgram> {
  const dir = mkdtempSync(join(tmpdir(), 'rtbench-plain-program-'));
  const remove = (): void => rmSync(dir, { recursive: true, force: true });
  const bundle = join(dir, 'bundle.mjs');
  try {
    writeFileSync(join(dir, 'program.mjs'), source);
    await build({ entryPoints: [join(dir, 'program.mjs')], bundle: true, format: 'esm', platform: 'node', outfile: bundle, logLevel: 'error' });
  } catch (error) {
    remove();
    throw error;
  }
  return {
    async runner(spec, flags = []) {
      const plugin = pluginForSpec(spec);
      if (!plugin || plugin.programs.kind !== 'process') throw new Error(`${spec}: not a runtime that runs a plain program`);
      const command = plugin.programs.command(await plugin.resolve(spec), plugin.translateFlags(flags), bundle);
      return {
        waitingEnv: plugin.waitingEnv,
        run<T>(args: readonly string[], env: Readonly<Record<string, string>> = {}): T {
          const r = spawnSync(command.command, [...command.args, ...args], { encoding: 'utf8', env: { ...command.env, ...env } });
          if (r.status !== 0) throw new Error(`${spec}: exit ${r.status}: ${r.stderr.slice(0, 300)}`);
          return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as T;
        },
      };
    },
    remove,
  };
}
