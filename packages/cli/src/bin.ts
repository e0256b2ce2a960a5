#!/usr/bin/env node
/**
 * The `rtbench` command (root scripts: `pnpm bench`, `pnpm rtbench`): finds
 * the command, reads its arguments, runs it. The CLI is commands only, in the
 * order a command goes: args/ parses the command line, plan.ts and plan/ turn
 * it into variants and cases (suites come from @rtbench/suite-loader), run/
 * hands the plan to @rtbench/run and saves, emit.ts and emit/ write what came
 * back; commands/ holds each command, process/ guards this process's exit.
 */
import { stderrColours as pc } from './emit/colours.ts';
import { parseCommandArgs, splitCommand } from './args/args.ts';
import { ALL_OPTIONS, COMMANDS, GLOBAL_OPTIONS, PROGRAM } from './args/command-line.ts';
import { commandHelp, rootHelp } from './args/help.ts';
import { FileWriteError, UnsafeCacheError } from '@rtbench/host';
import { MatrixRefused } from '@rtbench/releases';
import { unsafeCacheLine } from './process/cache-advice.ts';
import { abandonedPluginCalls, loadRuntimePlugins, RuntimePluginError } from '@rtbench/runtime-registry';
import { guardEarlyExit } from './process/exit-guard.ts';
import { UsageError } from './errors.ts';
import { printable } from '@rtbench/report';
import { applyMemoryBound } from './args/memory-option.ts';
import { survivePipeClosing } from './process/pipes.ts';
import { cacheDir, CLI_VERSION } from './paths.ts';
import { rememberFactsIn } from '@rtbench/process';
import { join } from 'node:path';

const TITLE = `${PROGRAM}/${CLI_VERSION}`;
const VERSION_LINE = `${TITLE} ${process.platform}-${process.arch} node-${process.version}`;

async function runCommandLine(argv: readonly string[]): Promise<number> {
  const { name, rest } = splitCommand(argv, ALL_OPTIONS);
  if (name === undefined) {
    const { flags } = parseCommandArgs(rest, { command: PROGRAM, options: GLOBAL_OPTIONS, positionals: [] });
    process.stdout.write(flags.version ? `${VERSION_LINE}\n` : rootHelp(PROGRAM, COMMANDS, GLOBAL_OPTIONS, TITLE));
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new UsageError(`unknown command "${name}". Commands: ${COMMANDS.map((c) => c.name).join(', ')} (see --help)`);
  const { flags, positionals, notes } = parseCommandArgs(rest, command);
  for (const note of notes) process.stderr.write(`${pc.yellow('note:')} ${note}\n`);
  if (flags.help) {
    process.stdout.write(commandHelp(command, TITLE));
    return 0;
  }
  if (flags.version) {
    process.stdout.write(`${VERSION_LINE}\n`);
    return 0;
  }
  applyMemoryBound(flags);
  return command.run(positionals, flags);
}

async function main(): Promise<void> {
  survivePipeClosing(process.stdout);
  survivePipeClosing(process.stderr);
  const guard = guardEarlyExit();
  // Runtime binaries' hashes and versions read once, not at every start (runtime-kit file-facts.ts).
  rememberFactsIn(join(cacheDir, 'file-facts'));
  try {
    await runGuarded();
  } finally {
    guard.finished();
  }
  // A plug-in given up on (no answer in time) may hold the process open with work of its own: end it.
  if (abandonedPluginCalls() > 0) process.exit();
}

/** An error is one line, whatever it quotes (a file's bytes, a name): control bytes and line breaks shown as escapes. */
const errorText = (text: string): string => printable(text, { oneLine: true });

/** The most lines a message's list shows under it; the rest are counted. */
const LIST_LINES = 10;

/**
 * A usage error as printed: its first line after "error:", the list it may
 * go on with under it, each line indented (no line of it can pass for an
 * error of its own) and made one line, at most LIST_LINES and a count.
 */
function usageLines(message: string): string[] {
  const [first = '', ...rest] = message.split('\n');
  const listed = rest.length > LIST_LINES + 1 ? [...rest.slice(0, LIST_LINES), `… and ${rest.length - LIST_LINES} more`] : rest;
  return [`${pc.red('error:')} ${errorText(first)}`, ...listed.map((line) => `  ${errorText(line)}`)];
}

async function runGuarded(): Promise<void> {
  try {
    // Runtimes rtbench does not ship, named in RTBENCH_RUNTIME_PLUGINS, before any argument names one.
    await loadRuntimePlugins();
    process.exitCode = await runCommandLine(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) {
      for (const message of error.errors) process.stderr.write(`${usageLines(message).join('\n')}\n`);
      process.exitCode = 2;
      return;
    }
    // A file that could not be written (a full disk, a read-only directory): one line; the file there is unchanged.
    // A runtime plug-in that could not be loaded: one line naming it. A release matrix's folder or merge refused: one line.
    // A cache folder another user controls (program cache: bundles, brought entries, start-up programs): one line, and what to do.
    if (error instanceof UnsafeCacheError) {
      process.stderr.write(`${pc.red('error:')} ${errorText(unsafeCacheLine(error))}\n`);
      process.exitCode = 2;
      return;
    }
    if (error instanceof FileWriteError || error instanceof RuntimePluginError || error instanceof MatrixRefused) {
      process.stderr.write(`${pc.red('error:')} ${errorText(error.message)}\n`);
      process.exitCode = 2;
      return;
    }
    throw error;
  }
}

await main();
