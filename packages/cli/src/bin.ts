#!/usr/bin/env node
/** The `rtbench` command (root scripts: `pnpm bench`, `pnpm rtbench`). */
import { cac } from 'cac';
import pc from 'picocolors';
import { BENCH_DEFAULTS, benchCommand, type BenchFlags } from './commands/bench.ts';
import { benchCompareCommand, COMPARE_DEFAULTS, compareFilesCommand, type CompareFlags } from './commands/compare.ts';
import { extractCompareArgs } from './compare/arms.ts';
import { reportCommand } from './commands/report.ts';
import { runtimesCommand } from './commands/runtimes.ts';
import { UsageError } from './errors.ts';
import { takeValueOptions } from './options.ts';
import { listSuites } from './suites.ts';

const cli = cac('rtbench');
// --compare takes several values, which cac cannot parse; it is taken out of argv first.
let compareArms: string[] | undefined;

cli
  .command('bench <suite>', 'Run a suite on one or more runtimes and print a table')
  .option('--runtime <list>', 'Comma-separated variants, e.g. node@24,deno or "node@26 --max-semi-space-size=64"')
  .option('--filter <pattern>', 'Only cases whose id contains this text (or matches /regex/)')
  .option('--time <duration>', `Sampling time per case and runtime, over all rounds (default ${BENCH_DEFAULTS.time})`)
  .option('--warmup <duration>', `Warmup in each process (default ${BENCH_DEFAULTS.warmup})`)
  .option('--rounds <n>', `Fresh processes per case and runtime (default ${BENCH_DEFAULTS.rounds})`)
  .option('--timeout <duration>', 'Kill a runtime process after this long (default max(60s, 20x its budget))')
  .option('--seed <n>', 'Seed for the order of runtimes within a round')
  .option('--out <file>', 'Write the run JSON here instead of results/<time>-<suite>.json')
  .option('--json', 'Print the run as JSON on stdout (the table goes to stderr)')
  .option('--quiet', 'No progress output')
  .option('--compare <variants...>', `Compare variants with a verdict per case, the first is the baseline: --compare node@24 node@26 (defaults ${COMPARE_DEFAULTS.rounds} rounds, --time ${COMPARE_DEFAULTS.time})`)
  .option('--threshold <percent>', `With --compare: noise threshold for faster/slower/equivalent (default ${COMPARE_DEFAULTS.threshold * 100}%)`)
  .option('--fail-on-regression <percent>', 'With --compare: exit 1 if a case is significantly slower by more than this')
  .option('--markdown', 'With --compare: print the comparison as markdown for a pull request')
  .option('--format <format>', 'With --compare: table, markdown or json')
  .action(async (suite: string, flags: BenchFlags & CompareFlags) => {
    if (compareArms) {
      process.exitCode = await benchCompareCommand(suite, compareArms, flags);
      return;
    }
    for (const option of ['threshold', 'failOnRegression', 'markdown', 'format'] as const) {
      if (flags[option] !== undefined) throw new UsageError(`--${option.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} applies to --compare (for a saved run's markdown: rtbench report --format markdown)`);
    }
    const { exitCode } = await benchCommand(suite, flags);
    process.exitCode = exitCode;
  });

cli
  .command('compare <run> [other]', 'Verdicts from saved runs: one run made with --compare (paired), or two runs (unpaired)')
  .option('--threshold <percent>', `Noise threshold for faster/slower/equivalent (default ${COMPARE_DEFAULTS.threshold * 100}%)`)
  .option('--fail-on-regression <percent>', 'Exit 1 if a case is significantly slower by more than this')
  .option('--markdown', 'As markdown for a pull request')
  .option('--format <format>', 'table (default), markdown or json')
  .option('--json', 'As JSON (same as --format json)')
  .action((run: string, other: string | undefined, flags: CompareFlags) => {
    process.exitCode = compareFilesCommand(other ? [run, other] : [run], flags);
  });

cli
  .command('runtimes', 'List the runtimes rtbench can run, with versions, engines and binaries')
  .option('--json', 'As JSON')
  .action(async (flags: { json?: boolean }) => {
    process.exitCode = await runtimesCommand(flags.json === true);
  });

cli
  .command('report [run]', 'Render a saved run (default: the newest in results/)')
  .option('--format <format>', 'table, markdown or json', { default: 'table' })
  .action((file: string | undefined, flags: { format: string }) => {
    process.exitCode = reportCommand(file, flags.format);
  });

cli.command('suites', 'List the suites').action(() => {
  for (const s of listSuites()) process.stdout.write(`${s.name}\n`);
});

cli.help();

async function main(): Promise<void> {
  try {
    const extracted = extractCompareArgs(process.argv);
    compareArms = extracted.compare;
    // Option values are taken as typed (cac would turn "2000" into a number and "-5ms" into options).
    const named = cli.commands.find((c) => c.name === extracted.argv[2]);
    const valueOptions = [...cli.globalCommand.options, ...(named?.options ?? [])]
      .filter((o) => o.required)
      .map((o) => ({ kebab: o.rawName.replace(/^--([\w-]+).*$/, '$1'), camel: o.name }));
    const taken = takeValueOptions(extracted.argv, valueOptions);
    cli.parse(taken.argv, { run: false });
    Object.assign(cli.options, taken.values);
    if (!cli.matchedCommand) {
      if (cli.args.length) throw new UsageError(`unknown command "${cli.args[0]}". Commands: bench, compare, report, runtimes, suites (see --help)`);
      if (!cli.options.help) cli.outputHelp();
      return;
    }
    await cli.runMatchedCommand();
  } catch (error) {
    if (error instanceof UsageError || (error instanceof Error && error.name === 'CACError')) {
      process.stderr.write(`${pc.red('error:')} ${error.message}\n`);
      process.exitCode = 2;
      return;
    }
    throw error;
  }
}

await main();
