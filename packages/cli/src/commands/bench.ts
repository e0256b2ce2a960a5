/**
 * `rtbench bench <suite...>`: a suite measured on runtimes, a table; with
 * --compare, a verdict per case (run/measure-suite.ts). Several suites run one
 * after another in this one process, each prepared (planned, checked) before
 * the first starts, a table and a saved run each (run/several-suites.ts).
 */
import { mkdirSync, statSync } from 'node:fs';
import { BENCH_OPTIONS } from '../options/bench.ts';
import { measuringCommand } from '../options/measuring-command.ts';
import { prepareSuite } from '../run/measure-suite.ts';
import { suiteHeading, suiteTargets } from '../run/several-suites.ts';
import { outputReporter } from '../emit.ts';
import { UsageError } from '../errors.ts';
import { SIGNAL_EXIT } from '@rtbench/run';
import { defaultReporter } from '@rtbench/report';

export const bench = measuringCommand({
  name: 'bench',
  positionals: [{ name: 'suite', required: true, variadic: true, missing: 'name a suite (`rtbench suites` lists them) or a suite folder' }],
  summary: 'Run a suite (or several, one after another) on one or more runtimes and print a table; with --compare, a verdict per case',
  details: [
    'Several suites run one after another in this one process, each planned and checked before the first starts: ' +
      'a table and a saved run each. --save then names a folder (each run saved in it as <suite>.json), --html alone ' +
      'writes each page beside its run; -o, --html <file> and formats other than terminal and markdown are refused.',
  ],
  options: BENCH_OPTIONS,
  run: async (suites, flags) => {
    const reporter = outputReporter(flags);
    const targets = suiteTargets(suites, flags, { format: reporter.format, read: reporter.sections !== undefined });
    // Markdown's table, the other format a person reads, has a heading that names its suite; the terminal's does not.
    const tableNamesSuite = reporter !== defaultReporter();
    if (targets.length > 1 && flags.save !== undefined) saveFolder(flags.save);
    const runs: (() => Promise<number>)[] = [];
    for (const target of targets) runs.push(await prepareSuite(target.suite, { ...flags, save: target.save, html: target.html }));
    let worst = 0;
    for (const [i, run] of runs.entries()) {
      if (targets.length > 1) process.stdout.write(suiteHeading(targets[i]!.suite, i, tableNamesSuite));
      const code = await run();
      // Interrupted: the suites after it are not started.
      if (Object.values(SIGNAL_EXIT).includes(code)) return code;
      worst = Math.max(worst, code);
    }
    return worst;
  },
});

/** --save with several suites: a folder, made if it is missing; a file there is refused before anything runs. */
function saveFolder(path: string): void {
  let isFile = false;
  try {
    isFile = !statSync(path).isDirectory();
  } catch {
    /* missing: made below */
  }
  if (isFile) throw new UsageError(`--save ${path} is a file; with several suites --save names a folder, each run saved in it as <suite>.json`);
  mkdirSync(path, { recursive: true });
}
