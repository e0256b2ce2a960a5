/**
 * Engine flags for workerd go in the config's v8Flags list (recorded as the
 * translated flags' args). workerd refuses a flag V8 does not know, or a bad
 * value, when it starts ("unrecognized V8 flag; argv[1] = …", exit 1), so a
 * check starts a server with the flags and a do-nothing worker.
 */
import { rmSync } from 'node:fs';
import { FlagError, splitFlag, type RuntimeTarget, type TranslatedFlags } from '@rtbench/runner-kit';
import { HANDLER_KEY } from './handoff.ts';
import { workerdEnv, writeJobConfig } from './run-job.ts';
import { startWorkerd } from './server.ts';

export function translateWorkerdFlags(flags: readonly string[]): TranslatedFlags {
  for (const flag of flags) {
    try {
      splitFlag(flag);
    } catch (error) {
      throw new FlagError((error as Error).message);
    }
  }
  return { args: [...flags], env: {} };
}

/** Lines of workerd's output that explain a refused flag. */
function flagComplaint(output: string): string {
  const lines = output.split('\n').filter((l) => /flag|Error|error/.test(l) && !l.includes('per-isolate bootstrap'));
  return (lines.length ? lines : output.split('\n')).filter(Boolean).slice(0, 4).join('\n');
}

export async function checkWorkerdFlags(target: RuntimeTarget, flags: TranslatedFlags, timeoutMs = 30_000): Promise<void> {
  const { dir, configPath } = writeJobConfig({
    bundle: { source: `globalThis.${HANDLER_KEY} = { fetch: () => new Response('ok') };\n` },
    v8Flags: flags.args,
    workerdVersion: target.version,
    v8Version: target.engineVersion,
    env: flags.env,
  });
  const server = startWorkerd(target.binary, configPath, workerdEnv(flags.env), dir);
  const timer = setTimeout(() => server.kill(), timeoutMs);
  try {
    const port = await server.listening;
    if (port === undefined) {
      const exit = await server.exited;
      const how = server.killed ? `did not start within ${timeoutMs} ms` : `exited with ${exit.signal ?? `code ${exit.code}`}`;
      throw new FlagError(`${target.spec} rejected v8Flags ${JSON.stringify(flags.args)}: workerd ${how}: ${flagComplaint(server.output.toString())}`);
    }
  } finally {
    clearTimeout(timer);
    server.kill();
    await server.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}
