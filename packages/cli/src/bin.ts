#!/usr/bin/env node
/**
 * The `rtbench` command (root scripts: `pnpm bench`, `pnpm rtbench`): runs the
 * command line (command-run.ts) for this process. The CLI is commands only, in
 * the order a command goes: args/ parses the command line, plan.ts and plan/
 * turn it into variants and cases (suites come from @rtbench/suite-loader),
 * run/ hands the plan to @rtbench/run and saves, emit.ts and emit/ write what
 * came back; commands/ holds each command, process/ guards this process's exit.
 */
import { abandonedPluginCalls, loadRuntimePlugins } from '@rtbench/runtime-registry';
import { runCommandLine } from './command-run.ts';
import { guardEarlyExit } from './process/exit-guard.ts';
import { survivePipeClosing } from './process/pipes.ts';
import { cacheDir } from './paths.ts';
import { rememberFactsIn } from '@rtbench/process';
import { join } from 'node:path';

async function main(): Promise<void> {
  survivePipeClosing(process.stdout);
  survivePipeClosing(process.stderr);
  const guard = guardEarlyExit();
  // Runtime binaries' hashes and versions read once, not at every start (runtime-kit file-facts.ts).
  rememberFactsIn(join(cacheDir, 'file-facts'));
  try {
    // Runtimes rtbench does not ship, named in RTBENCH_RUNTIME_PLUGINS, before any argument names one.
    process.exitCode = await runCommandLine(process.argv.slice(2), { setUp: loadRuntimePlugins });
  } finally {
    guard.finished();
  }
  // A plug-in given up on (no answer in time) may hold the process open with work of its own: end it.
  if (abandonedPluginCalls() > 0) process.exit();
}

await main();
