#!/usr/bin/env node
/** The `rtbench` command (root scripts: `pnpm bench`, `pnpm rtbench`). */
import { cac } from 'cac';
import pc from 'picocolors';
import { BENCH_DEFAULTS, benchCommand, type BenchFlags } from './commands/bench.ts';
import { reportCommand } from './commands/report.ts';
import { runtimesCommand } from './commands/runtimes.ts';
import { UsageError } from './errors.ts';
import { listSuites } from './suites.ts';

const cli = cac('rtbench');

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
  .action(async (suite: string, flags: BenchFlags) => {
    const { exitCode } = await benchCommand(suite, flags);
    process.exitCode = exitCode;
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
    cli.parse(process.argv, { run: false });
    if (!cli.matchedCommand) {
      if (cli.args.length) throw new UsageError(`unknown command "${cli.args[0]}". Commands: bench, report, runtimes, suites (see --help)`);
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
