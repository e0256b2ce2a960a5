/**
 * A command that runs measurers (bench, run): it also takes the measurers'
 * own options (--sets-per-process, --cache-sim), declared by each measurer in
 * @rtbench/measurers, handed to its action as measurerOptions.
 */
import { MEASURERS, type MeasurerOptionValue } from '@rtbench/measurers';
import { camelName, type FlagsOf, type OptionSpec, type ParsedFlags } from '../args/args.ts';
import { command, type Command, type CommandSpec } from './command.ts';

const MEASURER_OPTIONS: readonly OptionSpec[] = MEASURERS.options();

/** Options with the measurers' own ones put after --schedule, which chooses among them (else at the end). */
function withMeasurerOptions(options: readonly OptionSpec[]): OptionSpec[] {
  const cut = options.findIndex((o) => o.name === 'schedule') + 1 || options.length;
  return [...options.slice(0, cut), ...MEASURER_OPTIONS, ...options.slice(cut)];
}

/** What a measuring command's action gets: its own options typed, and the measurers' as given. */
type MeasuringFlags<O extends readonly OptionSpec[]> = FlagsOf<O> & { measurerOptions: Record<string, MeasurerOptionValue> };

export function measuringCommand<const O extends readonly OptionSpec[]>(spec: CommandSpec<O, MeasuringFlags<O>>): Command {
  const declared = command({
    ...spec,
    run: (positionals, flags) => spec.run(positionals, {
      ...flags,
      measurerOptions: MEASURERS.optionValues((name) => (flags as ParsedFlags)[camelName(name)]),
    }),
  });
  return { ...declared, options: withMeasurerOptions(spec.options) };
}
