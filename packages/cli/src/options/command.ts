/**
 * What a command is: its name, arguments, options and help, and its run.
 * Each command declares itself in its own module (commands/<name>.ts);
 * command-list.ts lists them, args.ts parses a command line by them and
 * help.ts words --help from them.
 */
import { MEASURERS, type MeasurerOptionValue } from '@rtbench/measurers';
import { camelName, type FlagsOf, type OptionSpec, type ParsedFlags, type PositionalSpec } from '../args/args.ts';
import type { CommandHelp } from '../args/help.ts';
import { PROGRAM } from './global.ts';

export interface Command extends CommandHelp {
  /** As typed: "bench". */
  readonly name: string;
  run(positionals: readonly string[], flags: ParsedFlags): Promise<number> | number;
}

/** The measurers' own options (--sets-per-process, --cache-sim), declared by each measurer in @rtbench/measurers. */
const MEASURER_OPTIONS: readonly OptionSpec[] = MEASURERS.options();

/** Options with the measurers' own ones put after --schedule, which chooses among them (else at the end). */
function withMeasurerOptions(options: readonly OptionSpec[]): OptionSpec[] {
  const cut = options.findIndex((o) => o.name === 'schedule') + 1 || options.length;
  return [...options.slice(0, cut), ...MEASURER_OPTIONS, ...options.slice(cut)];
}

/**
 * A command whose action gets its options typed by its own declarations;
 * `measurers`: it also takes the measurers' own options, handed on as
 * measurerOptions.
 */
export function command<const O extends readonly OptionSpec[]>(spec: {
  name: string;
  positionals: readonly PositionalSpec[];
  summary: string;
  details?: readonly string[];
  options: O;
  measurers?: true;
  run(positionals: readonly string[], flags: FlagsOf<O> & { measurerOptions?: Record<string, MeasurerOptionValue> }): Promise<number> | number;
}): Command {
  return {
    ...spec,
    options: spec.measurers ? withMeasurerOptions(spec.options) : spec.options,
    command: `${PROGRAM} ${spec.name}`,
    run: (positionals, flags) =>
      spec.run(positionals, {
        ...(flags as FlagsOf<O>),
        ...(spec.measurers ? { measurerOptions: MEASURERS.optionValues((name) => flags[camelName(name)]) } : {}),
      }),
  };
}
