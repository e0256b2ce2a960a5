#!/usr/bin/env node
/**
 * The `rtbench` command (root scripts: `pnpm bench`, `pnpm rtbench`): runs the
 * command line (command-run.ts) for this process. The CLI is commands only, in
 * the order a command goes: args/ parses the command line, plan.ts and plan/
 * turn it into variants and cases (suites come from @rtbench/suite-loader),
 * run/ hands the plan to @rtbench/run and saves, emit.ts and emit/ write what
 * came back; commands/ holds each command, process/ guards this process's exit.
 */
import { runCommandLine } from './command-run.ts';
import { guardEarlyExit } from './process/exit-guard.ts';
import { survivePipeClosing } from './process/pipes.ts';
import { cacheDir } from './paths.ts';
// Its own entry, not the package's index: that one reaches the runtimes' processes, which a reading command never starts.
import { rememberFactsIn } from '@rtbench/process/file-facts';
import { join } from 'node:path';

async function main(): Promise<void> {
  survivePipeClosing(process.stdout);
  survivePipeClosing(process.stderr);
  // The registry (every built-in runtime's plug-in) is loaded here only to load plug-ins; a command loads it when it needs it.
  let registry: typeof import('@rtbench/runtime-registry') | undefined;
  const guard = guardEarlyExit(() => registry?.pendingPluginCall());
  // Runtime binaries' hashes and versions read once, not at every start (runtime-kit file-facts.ts).
  rememberFactsIn(join(cacheDir, 'file-facts'));
  try {
    // Runtimes rtbench does not ship, named in RTBENCH_RUNTIME_PLUGINS, before any argument names one.
    const setUp = async (): Promise<void> => {
      if (!process.env.RTBENCH_RUNTIME_PLUGINS) return;
      registry = await import('@rtbench/runtime-registry');
      await registry.loadRuntimePlugins();
    };
    process.exitCode = await runCommandLine(process.argv.slice(2), { setUp });
  } finally {
    guard.finished();
  }
  // A plug-in given up on (no answer in time) may hold the process open with work of its own: end it.
  if (registry && registry.abandonedPluginCalls() > 0) process.exit();
}

await main();
