#!/usr/bin/env node
/** The `rtbench` command (root scripts: `pnpm bench`, `pnpm rtbench`). */
import { cac } from 'cac';
import { stderrColours as pc } from './colours.ts';
import { formatNames } from '@rtbench/report';
import { benchCommand, type BenchFlags } from './commands/bench.ts';
import { compareFilesCommand, type CompareFlags } from './commands/compare.ts';
import { extractCompareArgs } from './compare/arms.ts';
import { reportCommand } from './commands/report.ts';
import { mergeCommand, type MergeFlags } from './commands/merge.ts';
import { historyCommand, type HistoryFlags } from './commands/history.ts';
import { runtimesCommand } from './commands/runtimes.ts';
import { isBroughtFile } from './brought-file.ts';
import { UsageError } from './errors.ts';
import { survivePipeClosing } from './pipes.ts';
import { takeValueOptions } from './options.ts';
import { BENCH_DEFAULTS, COMPARE_DEFAULTS, WARMUP_CAP_FACTOR } from './plan.ts';
import { listSuites } from './suites.ts';
import { CLI_VERSION } from './paths.ts';

const cli = cac('rtbench');
// --compare takes several values, which cac cannot parse; it is taken out of argv first.
let compareArms: string[] | undefined;

const FORMAT_HELP = `Output format: ${formatNames().join(', ')} (default terminal; aliases table, md)`;
const pct = (x: number): string => `${+(x * 100).toFixed(2)}%`;

/** Options every command that ends in a view takes. */
function outputOptions<T extends ReturnType<typeof cli.command>>(command: T): T {
  return command
    .option('--format <format>', FORMAT_HELP)
    .option('-o, --output <file>', 'Write the output (any --format) to this file instead of stdout, atomically')
    .option('--json', 'Same as --format json')
    .option('--markdown', 'Same as --format markdown')
    .option('--plot', 'Terminal: a distribution plot per case (samples and process medians)')
    .option('--metrics <view>', 'Also print engine metrics: gc (GC by kind per 1k ops, GC time share, bytes/op, heap state; under a comparison, their change)')
    .option('--threshold <percent>', `Noise threshold for faster/slower/equivalent (default ${pct(COMPARE_DEFAULTS.threshold)})`)
    .option('--fail-on-regression <percent>', 'Exit 1 if a case is significantly slower than the baseline by more than this') as T;
}

outputOptions(
  cli
    .command('bench <suite>', 'Run a suite on one or more runtimes and print a table')
    .option('--runtime <list>', 'Comma-separated variants, e.g. node@24,deno or "node@26 --max-semi-space-size=64"; the first is the baseline')
    .option('--filter <pattern>', 'Only cases whose id contains this text (or matches /regex/)')
    .option('--time <duration>', `Sampling time per case and runtime over --rounds (default ${BENCH_DEFAULTS.time}; --compare ${COMPARE_DEFAULTS.time})`)
    .option('--warmup <duration>', `Warmup in each process, at least; it goes on (up to ${WARMUP_CAP_FACTOR}x) while batch times still fall (default ${BENCH_DEFAULTS.warmup}; --compare ${COMPARE_DEFAULTS.warmup})`)
    .option('--measure <what>', 'time (default), or instructions: counted under valgrind (cachegrind), two processes per case, variant and round; needs valgrind')
    .option('--cache-sim', 'With --measure instructions: simulate the caches too, and report misses and estimated cycles per operation')
    .option('--schedule <kind>', 'lockstep (default): per round a set of live processes, one per runtime, sampled in turn; processes: a fresh process per runtime and round, sampling back to back')
    .option('--rounds <n>', `Rounds (lockstep sets, or fresh processes) per case and runtime; fixes the count unless --target is given (default: at least ${BENCH_DEFAULTS.rounds}, adaptive; --compare ${COMPARE_DEFAULTS.rounds})`)
    .option('--target <percent>', `Add rounds until every ratio's 95% CI is within ± this (default ${pct(BENCH_DEFAULTS.target)} for a table)`)
    .option('--max-rounds <n>', `Adaptive: at most this many rounds per case (default ${BENCH_DEFAULTS.maxRounds}; --compare ${COMPARE_DEFAULTS.maxRounds})`)
    .option('--max-time <duration>', `Adaptive: start no round after this much wall time (default ${BENCH_DEFAULTS.maxTime} for a table)`)
    .option('--timeout <duration>', 'Kill a runtime process after this long (default max(60s, 20x its budget))')
    .option('--seed <n>', 'Seed for the order of runtimes within a round')
    .option('--shard <i/n>', 'Measure the i-th of n shares of the cases (one per CI machine; combine them with rtbench merge)')
    .option('--out <file>', 'Write the run JSON here instead of results/<time>-<suite>.json')
    .option('--quiet', 'No progress output')
    .option('--profile', 'After the run, a CPU profile of each case on each variant in an extra process: top functions by self time (and, with --compare, where the time moved), .cpuprofile files beside the run')
    .option('--html [file]', 'Also write the HTML report (charts), to this file or beside the saved run')
    .option('--compare <variants...>', `Compare variants with a verdict per case, the first is the baseline: --compare node@24 node@26 (defaults ${COMPARE_DEFAULTS.rounds} rounds, --time ${COMPARE_DEFAULTS.time})`),
).action(async (suite: string, flags: BenchFlags) => {
  process.exitCode = await benchCommand(suite, flags, compareArms);
});

outputOptions(cli.command('compare <run> [other]', 'Verdicts from saved runs: one run made with --compare (paired), or two runs (unpaired)')).action(
  (run: string, other: string | undefined, flags: CompareFlags) => {
    process.exitCode = compareFilesCommand(other ? [run, other] : [run], flags);
  },
);

outputOptions(cli.command('merge <...shards>', 'Combine shard runs (bench --shard i/n on several machines) into one run and show it'))
  .option('--out <file>', 'Where to save the merged run (required)')
  .action((files: string[], flags: MergeFlags) => {
    process.exitCode = mergeCommand(files, flags);
  });

cli
  .command('history [...paths]', 'Each case × variant across saved runs (default: results/), in commit order, with change points marked')
  .usage(
    `history [results-dir-or-run.json ...]

  Orders the runs by the project commit each recorded (git rev-list --topo-order
  in this checkout; runs at one commit by start time), or by start time when a
  run has no commit the checkout knows; the output says which. Per case and
  variant (the variant id: runtime as named, flags, environment) it shows each
  run's median of process medians. A change point is a run whose process
  medians differ from the previous run's (of the same case and variant): the
  unpaired Hodges-Lehmann ratio with its Mann-Whitney CI, Benjamini-Hochberg
  across every such comparison shown; marked when the CI excludes 1, the change
  is beyond --threshold and q < 5%. A new binary under the same variant does not
  break the series; its point is marked. Not --format bmf (bencher keeps its own
  history of the runs it is given).`,
  )
  .option('--filter <pattern>', 'Only cases whose id contains this text (or matches /regex/); commas for several')
  .option('--runtime <list>', 'Only these variants, comma-separated, as the runs name them (node@26, "node@26 --jitless")')
  .option('--format <format>', `Output format: terminal, markdown, json, csv (one row per point; csv-stats the same), html (a line chart per case) (default terminal)`)
  .option('-o, --output <file>', 'Write the output to this file instead of stdout, atomically')
  .option('--json', 'Same as --format json')
  .option('--markdown', 'Same as --format markdown')
  .option('--threshold <percent>', `A change smaller than this is not a change point (default ${pct(COMPARE_DEFAULTS.threshold)})`)
  .option('--fail-on-regression <percent>', "Exit 1 if the newest run is a change point slower than the run before it by more than this, on any case × variant")
  .action((paths: string[], flags: HistoryFlags) => {
    process.exitCode = historyCommand(paths, flags);
  });

cli
  .command('runtimes', 'List the runtimes rtbench can run, with versions, engines and binaries')
  .option('--json', 'As JSON')
  .action(async (flags: { json?: boolean }) => {
    process.exitCode = await runtimesCommand(flags.json === true);
  });

outputOptions(cli.command('report [run]', 'Render a saved run (default: the newest in results/)')).action((file: string | undefined, flags: CompareFlags) => {
  process.exitCode = reportCommand(file, flags);
});

// Listed for --help; main() hands `run <file>` to bench, which takes the same options.
cli.command('run <file>', "Run a benchmark file written for mitata or tinybench, unchanged (bench's options apply)").action(() => {});

cli.command('suites', 'List the suites').action(() => {
  for (const s of listSuites()) process.stdout.write(`${s.name}\n`);
});

cli.option('--no-color', 'No colours (also NO_COLOR=1); FORCE_COLOR=1 forces them, on stdout and stderr alike');
cli.help();
cli.version(CLI_VERSION);

/** `rtbench run <file>` is `rtbench bench <file>` for a script that imports mitata or tinybench. */
function broughtFileAsBench(argv: string[]): string[] {
  if (argv[2] !== 'run') return argv;
  // `run --help`: run takes bench's options, so bench's help is the one to read.
  if (argv.slice(3).some((a) => a === '--help' || a === '-h')) {
    process.stdout.write('rtbench run <file>: a benchmark file written for mitata or tinybench, run unchanged; it takes the options of bench:\n\n');
    return [argv[0]!, argv[1]!, 'bench', '--help'];
  }
  const file = argv[3];
  if (!file || file.startsWith('-')) throw new UsageError('rtbench run <file>: name a benchmark file written for mitata or tinybench');
  if (!isBroughtFile(file)) throw new UsageError(`${file} is not a script that imports 'mitata' or 'tinybench' (for a suite: rtbench bench <suite>)`);
  return [argv[0]!, argv[1]!, 'bench', ...argv.slice(3)];
}

async function main(): Promise<void> {
  survivePipeClosing(process.stdout);
  survivePipeClosing(process.stderr);
  try {
    const extracted = extractCompareArgs(broughtFileAsBench(process.argv));
    compareArms = extracted.compare;
    // Option values are taken as typed (cac would turn "2000" into a number and "-5ms" into options).
    const named = cli.commands.find((c) => c.name === extracted.argv[2]);
    const valueOptions = [...cli.globalCommand.options, ...(named?.options ?? [])]
      .filter((o) => o.required)
      .map((o) => ({ kebab: /--([\w-]+)/.exec(o.rawName)![1]!, camel: o.name, ...(/^-(\w),/.test(o.rawName) ? { short: /^-(\w),/.exec(o.rawName)![1]! } : {}) }));
    const taken = takeValueOptions(extracted.argv, valueOptions);
    cli.parse(taken.argv, { run: false });
    Object.assign(cli.options, taken.values);
    if (!cli.matchedCommand) {
      if (cli.args.length) throw new UsageError(`unknown command "${cli.args[0]}". Commands: bench, run, compare, merge, report, history, runtimes, suites (see --help)`);
      if (!cli.options.help && !cli.options.version) cli.outputHelp();
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
