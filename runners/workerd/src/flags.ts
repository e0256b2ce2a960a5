/**
 * Engine flags for workerd go in the config's v8Flags list (recorded as the
 * translated flags' args). workerd refuses a flag V8 does not know, or a bad
 * value, when it starts ("unrecognized V8 flag; argv[1] = …", exit 1), so a
 * check starts a server with the flags and a do-nothing worker. workerd also
 * sets some V8 flags itself, after the config's, and keeps them: a request
 * for --concurrent-marking, --incremental-marking or --memory-reducer does
 * nothing. The check prints V8's flag values and refuses such a flag too.
 */
import { FlagError, flagsAsWritten, overriddenV8Flags, parseV8FlagValues, type RuntimeTarget, type TranslatedFlags } from '@rtbench/runtime-kit';
import { removeGuardedDir } from '@rtbench/process';
import { HANDLER_KEY } from './handoff.ts';
import { workerdEnv, writeJobConfig } from './run-job.ts';
import { startWorkerd } from './server.ts';

export const translateWorkerdFlags = flagsAsWritten;

/** Lines of workerd's output that explain a refused flag. */
function flagComplaint(output: string): string {
  const lines = output.split('\n').filter((l) => /flag|Error|error/.test(l) && !l.includes('per-isolate bootstrap'));
  return (lines.length ? lines : output.split('\n')).filter(Boolean).slice(0, 4).join('\n');
}

export async function checkWorkerdFlags(target: RuntimeTarget, flags: TranslatedFlags, timeoutMs = 30_000): Promise<void> {
  const { dir, configPath } = writeJobConfig({
    bundle: { source: `globalThis.${HANDLER_KEY} = { fetch: () => new Response('ok') };\n` },
    v8Flags: [...flags.args, '--print-flag-values'],
    workerdVersion: target.version,
    env: flags.env,
  });
  // V8 prints about 1,000 flag values: keep all of its output.
  const server = startWorkerd(target.binary, configPath, workerdEnv(flags.env), dir, 1 << 20);
  const timer = setTimeout(() => server.kill(), timeoutMs);
  try {
    const port = await server.listening;
    if (port === undefined) {
      const exit = await server.exited;
      const how = server.killed ? `did not start within ${timeoutMs} ms` : `exited with ${exit.signal ?? `code ${exit.code}`}`;
      throw new FlagError(`${target.spec} rejected v8Flags ${JSON.stringify(flags.args)}: workerd ${how}: ${flagComplaint(server.output.toString())}`);
    }
    // A clean exit flushes V8's buffered stdout, where the values are.
    await server.terminate(5_000);
    const overridden = overriddenV8Flags(flags.args, parseV8FlagValues(server.output.toString()));
    if (overridden.length) {
      const list = overridden.map((o) => `${o.flag} (workerd runs V8 with ${o.effective})`).join(', ');
      throw new FlagError(`${target.spec} would ignore ${list}: workerd sets ${overridden.length === 1 ? 'this flag' : 'these flags'} itself`);
    }
  } finally {
    clearTimeout(timer);
    server.kill();
    await server.exited;
    removeGuardedDir(dir);
  }
}
