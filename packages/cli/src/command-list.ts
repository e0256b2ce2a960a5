/**
 * Every rtbench command, each declared in its own module (commands/<name>.ts:
 * its arguments, options, help and run), in the order --help lists them.
 */
import { camelName, type OptionSpec } from './args/args.ts';
import { bench } from './commands/bench.ts';
import { bisect } from './commands/bisect.ts';
import { claims } from './commands/claims.ts';
import { compare } from './commands/compare.ts';
import { history } from './commands/history.ts';
import { merge } from './commands/merge.ts';
import { releases } from './commands/releases.ts';
import { report } from './commands/report.ts';
import { run } from './commands/run.ts';
import { runtimes } from './commands/runtimes.ts';
import { suites } from './commands/suites.ts';
import type { Command } from './options/command.ts';

export { GLOBAL_OPTIONS, PROGRAM } from './options/global.ts';

export const COMMANDS: readonly Command[] = [bench, run, compare, merge, report, history, bisect, releases, claims, runtimes, suites];

/** Every option any command takes (to find the command on a line whose options come first). */
export const ALL_OPTIONS: readonly OptionSpec[] = [...new Map(COMMANDS.flatMap((c) => c.options).map((o) => [camelName(o.name), o])).values()];
