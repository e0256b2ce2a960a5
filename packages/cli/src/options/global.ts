/** The program's name and the options it takes with no command (--help, --version): all a start needs before it loads a command. */
import type { OptionSpec } from '../args/args.ts';

export const PROGRAM = 'rtbench';

/** Taken by every command, and with no command. */
export const GLOBAL_OPTIONS = [
  { name: 'no-color', kind: 'flag', help: 'No colours (also NO_COLOR=1); FORCE_COLOR=1 forces them, on stdout and stderr alike', section: 'Global' },
  { name: 'help', short: 'h', kind: 'flag', help: 'This help', section: 'Global', standalone: true },
  { name: 'version', short: 'v', kind: 'flag', help: 'The version of rtbench', section: 'Global', standalone: true },
] as const satisfies readonly OptionSpec[];
