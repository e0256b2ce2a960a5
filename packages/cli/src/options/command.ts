/**
 * What a command is: its name, arguments, options and help, and its run.
 * Each command declares itself in its own module (commands/<name>.ts);
 * command-table.ts names them, args.ts parses a command line by them and
 * help.ts words --help from them. A command that runs measurers takes their
 * own options too (measuring-command.ts); this module loads no measurer.
 */
import type { FlagsOf, OptionSpec, ParsedFlags, PositionalSpec } from '../args/args.ts';
import type { CommandHelp } from '../args/help.ts';
import { PROGRAM } from './global.ts';

export interface Command extends CommandHelp {
  /** As typed: "bench". */
  readonly name: string;
  run(positionals: readonly string[], flags: ParsedFlags): Promise<number> | number;
}

/** A command's declaration: its action gets `Flags`, by default its options typed by their own declarations. */
export interface CommandSpec<O extends readonly OptionSpec[], Flags = FlagsOf<O>> {
  name: string;
  positionals: readonly PositionalSpec[];
  summary: string;
  details?: readonly string[];
  options: O;
  run(positionals: readonly string[], flags: Flags): Promise<number> | number;
}

/** A command whose action gets its options typed by their own declarations. */
export function command<const O extends readonly OptionSpec[]>(spec: CommandSpec<O>): Command {
  return { ...spec, command: `${PROGRAM} ${spec.name}`, run: (positionals, flags) => spec.run(positionals, flags as FlagsOf<O>) };
}
