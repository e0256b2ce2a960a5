/** One command line, argv to exit code, with what the user got wrong worded (exit 2); bin.ts runs it, a test in its own process. */
import { stderrColours as pc } from './emit/colours.ts';
import { parseCommandArgs, splitCommand } from './args/args.ts';
import { GLOBAL_OPTIONS, PROGRAM } from './options/global.ts';
import { commandHelp, rootHelp } from './args/help.ts';
import { UsageError } from './errors.ts';
import { Refusal, UnsafeCacheError } from '@rtbench/core/usage-error';
import { unsafeCacheLine } from './process/cache-advice.ts';
import { printable } from '@rtbench/report';
import { applyMemoryBound } from './args/memory-option.ts';
import { CLI_VERSION } from './paths.ts';
import { COMMAND_NAMES, loadCommand } from './command-table.ts';

const TITLE = `${PROGRAM}/${CLI_VERSION}`;
const VERSION_LINE = `${TITLE} ${process.platform}-${process.arch} node-${process.version}`;

/** Where the command line's own words go: help, version, notes and errors (a command writes its output itself). */
export interface CommandLineOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

const PROCESS_OUTPUT: CommandLineOutput = { stdout: (text) => void process.stdout.write(text), stderr: (text) => void process.stderr.write(text) };

/** Its exit code, having printed what the user got wrong (2); any other error is thrown. `setUp` runs first, refused alike. */
export async function runCommandLine(argv: readonly string[], options: { out?: CommandLineOutput; setUp?: () => Promise<void> } = {}): Promise<number> {
  const out = options.out ?? PROCESS_OUTPUT;
  try {
    await options.setUp?.();
    return await runCommand(argv, out);
  } catch (error) {
    const lines = refusalLines(error);
    if (!lines) throw error;
    out.stderr(`${lines.join('\n')}\n`);
    return 2;
  }
}

async function runCommand(argv: readonly string[], out: CommandLineOutput): Promise<number> {
  const leading = leadingCommand(argv);
  if (leading && leading.name === undefined) {
    const { flags } = parseCommandArgs(leading.rest, { command: PROGRAM, options: GLOBAL_OPTIONS, positionals: [] });
    if (flags.version) {
      out.stdout(`${VERSION_LINE}\n`);
      return 0;
    }
  }
  // A command's module (and all it imports) is loaded only past --version, and only the named command's: the commands
  // are most of what a start compiles, and the measuring ones load what reading a saved run must not.
  const { name, rest } = leading ?? splitCommand(argv, (await import('./command-list.ts')).ALL_OPTIONS);
  if (name === undefined) {
    const { flags } = parseCommandArgs(rest, { command: PROGRAM, options: GLOBAL_OPTIONS, positionals: [] });
    out.stdout(flags.version ? `${VERSION_LINE}\n` : rootHelp(PROGRAM, (await import('./command-list.ts')).COMMANDS, GLOBAL_OPTIONS, TITLE));
    return 0;
  }
  const command = await loadCommand(name);
  if (!command) throw new UsageError(`unknown command "${name}". Commands: ${COMMAND_NAMES.join(', ')} (see --help)`);
  const { flags, positionals, notes } = parseCommandArgs(rest, command);
  for (const note of notes) out.stderr(`${pc.yellow('note:')} ${note}\n`);
  if (flags.help || flags.version) {
    out.stdout(flags.help ? commandHelp(command, TITLE) : `${VERSION_LINE}\n`);
    return 0;
  }
  applyMemoryBound(flags);
  return command.run(positionals, flags);
}

/** The global flags a line may hold with no command (--version, -h): no option of any command takes a value by these names. */
const GLOBAL_FLAGS = new Set(GLOBAL_OPTIONS.filter((o) => o.kind === 'flag').flatMap((o) => [`--${o.name}`, ...('short' in o ? [`-${o.short}`] : [])]));

/**
 * The command a line names and the rest, where that is plain without the
 * commands' options: its first word is the command, or it holds global flags
 * only (no command). Undefined when options come before the command: which of
 * them take a value, the commands' declarations say (splitCommand).
 */
export function leadingCommand(argv: readonly string[]): { name?: string; rest: string[] } | undefined {
  const [first, ...rest] = argv;
  if (first !== undefined && !first.startsWith('-')) return { name: first, rest };
  return argv.every((a) => GLOBAL_FLAGS.has(a)) ? { rest: [...argv] } : undefined;
}

/**
 * The lines of an error the user can act on (exit code 2), or undefined: a
 * usage error; a refusal of a place or a file (a file that could not be
 * written: the file there is unchanged; a runtime plug-in that could not be
 * loaded; a release matrix's folder or merge refused); a cache folder another
 * user controls (program cache: bundles, brought entries, start-up programs),
 * with what to do. Their classes are core's, so wording one loads nothing more.
 */
function refusalLines(error: unknown): string[] | undefined {
  if (error instanceof UsageError) return error.errors.flatMap(usageLines);
  if (error instanceof UnsafeCacheError) return [`${pc.red('error:')} ${errorText(unsafeCacheLine(error))}`];
  if (error instanceof Refusal) return [`${pc.red('error:')} ${errorText(error.message)}`];
  return undefined;
}

/** An error is one line, whatever it quotes (a file's bytes, a name): control bytes and line breaks shown as escapes. */
const errorText = (text: string): string => printable(text, { oneLine: true });

/** The most lines a message's list shows under it; the rest are counted. */
const LIST_LINES = 10;

/** A usage error as printed: "error:" and its first line, then its list indented (no line passes for an error), at most LIST_LINES and a count. */
function usageLines(message: string): string[] {
  const [first = '', ...rest] = message.split('\n');
  const listed = rest.length > LIST_LINES + 1 ? [...rest.slice(0, LIST_LINES), `… and ${rest.length - LIST_LINES} more`] : rest;
  return [`${pc.red('error:')} ${errorText(first)}`, ...listed.map((line) => `  ${errorText(line)}`)];
}
