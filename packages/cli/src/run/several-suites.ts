/**
 * `rtbench bench a b c`: several suites measured one after another in one
 * process (one start-up, one runtime resolution), a table per suite and a
 * run saved per suite. Decided here, before anything runs: where each run is
 * saved (--save names a folder, `<folder>/<suite>.json`), what --html and the
 * output format mean for several, and which lines are refused.
 */
import { join } from 'node:path';
import { UsageError } from '../errors.ts';

/** One suite's share of the command line: the suite as typed, and its own --save and --html. */
export interface SuiteTarget {
  suite: string;
  save?: string;
  html?: string | true;
}

/** The flags that name one place or one document: with several suites each gets its own, or the line is refused. */
export interface SeveralSuitesFlags {
  save?: string;
  html?: string | true;
  output?: string;
}

/** The output asked for: its --format name, and whether a person reads it (its tables can follow one another; the other formats are one document each). */
export interface SeveralSuitesOutput {
  format: string;
  read: boolean;
}

/** A suite's file name in a --save folder: its name or path as typed, one name (no folders), as results/ names runs. */
export const savedName = (suite: string): string => `${suite.replace(/\/+$/, '').replace(/[^A-Za-z0-9._@-]+/g, '_').replace(/^[._]+/, '') || 'suite'}.json`;

/**
 * Each suite with where its run goes. One suite: the flags as given. Several:
 * --save is a folder, --html only beside each saved run, no -o, and a text
 * format (each suite's table after the last one's).
 */
export function suiteTargets(suites: readonly string[], flags: SeveralSuitesFlags, output: SeveralSuitesOutput): SuiteTarget[] {
  if (suites.length === 1) return [{
    suite: suites[0]!,
    ...(flags.save !== undefined ? { save: flags.save } : {}),
    ...(flags.html !== undefined ? { html: flags.html } : {}),
  }];
  const several = `with several suites (${suites.join(', ')})`;
  if (typeof flags.html === 'string') throw new UsageError(`--html ${flags.html} names one page; ${several} give --html ` +
    `alone: each suite's page is written beside its saved run`);
  if (flags.output !== undefined) throw new UsageError(`--output ${flags.output} takes one suite's output; ${several} each ` +
    `table follows the last on stdout, and each run is saved (--save <folder>)`);
  const { format } = output;
  if (!output.read) throw new UsageError(`--format ${format} writes one document a run; ${several} run one suite at ` +
    `a time, or read each saved run with \`rtbench report --format ${format}\``);
  const byFile = new Map<string, string>();
  for (const suite of suites) {
    const file = savedName(suite);
    const other = byFile.get(file);
    if (other !== undefined) throw new UsageError(other === suite ? `${suite} is named twice` : `${other} and ${suite} would be saved under ` +
      `one name (${file}); name each suite once`);
    byFile.set(file, suite);
  }
  return suites.map((suite) => ({
    suite,
    ...(flags.save !== undefined ? { save: join(flags.save, savedName(suite)) } : {}),
    ...(flags.html !== undefined ? { html: flags.html } : {}),
  }));
}

/** What goes before a suite's table when several are shown: a blank line after the last one's, and the suite's name unless the table's own heading says it. */
export function suiteHeading(suite: string, index: number, tableNamesSuite: boolean): string {
  const gap = index === 0 ? '' : '\n';
  return tableNamesSuite ? gap : `${gap}${suite}\n`;
}
