/**
 * Every rtbench command loaded (command-table.ts lists them), for what needs
 * them all: --help, the command reference, a line whose options come before
 * its command.
 */
import { camelName, type OptionSpec } from './args/args.ts';
import { loadCommands } from './command-table.ts';
import type { Command } from './options/command.ts';

export { GLOBAL_OPTIONS, PROGRAM } from './options/global.ts';

export const COMMANDS: readonly Command[] = await loadCommands();

/** Every option any command takes (to find the command on a line whose options come first). */
export const ALL_OPTIONS: readonly OptionSpec[] = [...new Map(COMMANDS.flatMap((c) => c.options).map((o) => [camelName(o.name), o])).values()];
