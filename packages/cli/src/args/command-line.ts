/**
 * Every rtbench command, its arguments and options, declared once: the
 * command line is parsed from these (args.ts) and --help is made from them
 * (help.ts). What a command does is in commands/.
 */
import { displayWidth, formatNames, JSON_FLAG, MARKDOWN_FLAG, padToWidth, truncateToWidth } from '@rtbench/report';
import { isUnavailable } from '@rtbench/host';
import { PLATFORMS } from '@rtbench/process';
import { MAX_MEMORY_OPTION } from './memory-option.ts';
import { runtimeEngines, runtimePlugins } from '@rtbench/runtime-registry';
import { MEASURERS, measurersChosenBy, type MeasurerOptionValue } from '@rtbench/measurers';
import { camelName, type FlagsOf, type OptionSpec, type ParsedFlags, type PositionalSpec } from './args.ts';
import { BROUGHT_FORMATS_IN_WORDS, broughtFileProblem, checkBroughtFile, isWorkerTarget, listSuites, RUN_TARGETS_IN_WORDS, suiteSummary, type SuiteLocation } from '@rtbench/suite-loader';
import { benchCommand } from '../commands/bench.ts';
import { CLAIMS_DETAILS, CLAIMS_OPTIONS, CLAIMS_SUMMARY } from '../commands/claims-options.ts';
import { claimsCommand } from '../commands/claims.ts';
import { bisectCommand } from '../commands/bisect.ts';
import { BISECT_DEFAULTS, bisectRounds } from '@rtbench/bisect';
import { releasesCommand } from '../commands/releases.ts';
import { MATRIX_DEFAULTS } from '@rtbench/releases';
import { compareFilesCommand } from '../commands/compare.ts';
import { historyCommand } from '../commands/history.ts';
import { mergeCommand } from '../commands/merge.ts';
import { reportCommand } from '../commands/report.ts';
import { runtimesCommand } from '../commands/runtimes.ts';
import { UsageError } from '../errors.ts';
import type { CommandHelp } from './help.ts';
import { DECIDED_MIN_PAIRS, DEFAULT_MEASURER, WARMUP_CAP_FACTOR } from '../plan.ts';
import { listingFormat, writeListing } from '../listing.ts';

export const PROGRAM = 'rtbench';
const pct = (x: number): string => `${+(x * 100).toFixed(2)}%`;
/** The defaults of the default measurer (timing's), for a table and for a comparison. */
const BENCH_DEFAULTS = DEFAULT_MEASURER.defaults.bench;
const COMPARE_DEFAULTS = DEFAULT_MEASURER.defaults.compare;
const TIMING_THRESHOLD = DEFAULT_MEASURER.defaults.threshold([]);
/** "; instructions 3": a bisect's rounds for each --measure measurer. */
const ownBisectRounds = (which: 'min' | 'max'): string => measurersChosenBy('measure').map((m) => `; ${m.name} ${bisectRounds(m)[which]}`).join('');

/** Taken by bench, run, bisect and releases. */
const FIXED_WARMUP_OPTION = { name: 'fixed-warmup', kind: 'flag', help: 'Warm each process for --warmup exactly, not until its batch times are steady: for smoke runs whose figures are not read (docs/warmup.md)' } as const satisfies OptionSpec;

/** Taken by every command, and with no command. */
export const GLOBAL_OPTIONS = [
  { name: 'no-color', kind: 'flag', help: 'No colours (also NO_COLOR=1); FORCE_COLOR=1 forces them, on stdout and stderr alike', section: 'Global' },
  { name: 'help', short: 'h', kind: 'flag', help: 'This help', section: 'Global', standalone: true },
  { name: 'version', short: 'v', kind: 'flag', help: 'The version of rtbench', section: 'Global', standalone: true },
] as const satisfies readonly OptionSpec[];

/** Said once when a command line still spells the run's file `--out`. */
const OUT_RENAMED = '`--out` is now `--save` (the run as JSON); `-o/--output` writes the rendered --format';

/** Where the run itself is saved; named unlike -o/--output, which writes the rendered output. */
const saveOption = (help: string) => ({ name: 'save', kind: 'value', value: 'file', help, formerly: { name: 'out', note: OUT_RENAMED } }) as const satisfies OptionSpec;

/** Taken by every command that prints something: the same names mean the same on all of them. */
const PRINTING_OPTIONS = [
  { name: 'output', short: 'o', kind: 'value', value: 'file', help: 'Write the output (any --format) to this file instead of stdout, atomically', section: 'Output' },
  { name: JSON_FLAG, kind: 'flag', help: `Same as --format ${JSON_FLAG}`, section: 'Output' },
  { name: 'quiet', short: 'q', kind: 'flag', help: 'No progress and no informational lines on stderr (warnings and errors are still said)', section: 'Output' },
] as const satisfies readonly OptionSpec[];

/** Taken by every command that ends in a view of runs (bench, run, compare, merge, report). */
const OUTPUT_OPTIONS = [
  { name: 'format', kind: 'value', value: 'format', help: `Output format: ${formatNames().join(', ')} (default terminal; aliases table, md)`, section: 'Output' },
  ...PRINTING_OPTIONS,
  { name: MARKDOWN_FLAG, kind: 'flag', help: `Same as --format ${MARKDOWN_FLAG}`, section: 'Output' },
  { name: 'plot', kind: 'flag', help: 'Terminal: a distribution plot per case (samples and process medians)', section: 'Output' },
  { name: 'metrics', kind: 'value', value: 'view', help: 'Also print metrics: gc (GC by kind per 1k ops, GC time share, bytes/op, heap state; under a comparison, their change) or memory (peak resident memory, heap, bytes outside it, growth per call, leak mark)', section: 'Output' },
  { name: 'threshold', kind: 'value', value: 'percent', help: `Noise threshold for faster/slower/equivalent (default ${pct(TIMING_THRESHOLD)})`, section: 'Output' },
  { name: 'fail-on-regression', kind: 'value', value: 'percent', help: 'Exit 1 if a case is significantly slower than the baseline by more than this', section: 'Output' },
  { name: 'explain', kind: 'flag', help: 'Terminal: under the table, how it was measured and what each column, word and mark means (markdown and --html always say it)', section: 'Output' },
  { name: 'cpu-limit', kind: 'value', value: 'duration', help: "Request-shaped cases: a CPU limit per request (10ms, 0.5ms, 1s); the view gives the share of requests over it, with its interval over processes (a saved run is read with any limit; one saved with a limit shows it unless another is given)", section: 'Output' },
] as const satisfies readonly OptionSpec[];

/** Commands that list things (runtimes, suites): a table or JSON. */
const LISTING_OPTIONS = [{ name: 'format', kind: 'value', value: 'format', help: 'terminal (default) or json', section: 'Output' }, ...PRINTING_OPTIONS, ...GLOBAL_OPTIONS] as const satisfies readonly OptionSpec[];

/** bench's own options; `run` takes them too. */
const BENCH_OPTIONS = [
  { name: 'runtime', kind: 'list', value: 'list', help: 'Comma-separated variants, e.g. node@24,deno or "node@26 --max-semi-space-size=64"; the first is the baseline' },
  {
    name: 'compare',
    kind: 'trailing',
    value: 'variants',
    help: `Compare variants with a verdict per case, the first is the baseline: --compare node@24 node@26 (defaults ${COMPARE_DEFAULTS.rounds} rounds, --time ${COMPARE_DEFAULTS.time}); commas also separate them`,
  },
  { name: 'filter', kind: 'list', value: 'pattern', help: 'Only cases whose id contains this text (or matches /regex/); commas for several; !text leaves out what it matches' },
  { name: 'time', kind: 'value', value: 'duration', help: `Sampling time per case and runtime over --rounds (default ${BENCH_DEFAULTS.time}; --compare ${COMPARE_DEFAULTS.time})` },
  { name: 'warmup', kind: 'value', value: 'duration', help: `Warmup in each process, at least; it goes on until the batch times are steady within the engine's horizons, up to the engine's maximum or ${WARMUP_CAP_FACTOR}x this (docs/warmup.md) (default ${BENCH_DEFAULTS.warmup}; --compare ${COMPARE_DEFAULTS.warmup})` },
  FIXED_WARMUP_OPTION,
  { name: 'measure', kind: 'value', value: 'what', help: `time (default), or ${measurersChosenBy('measure').map((m) => `${m.name}: ${m.help}${m.needs ? `; needs ${m.needs}` : ''}`).join('; or ')}` },
  { name: 'schedule', kind: 'value', value: 'kind', help: measurersChosenBy('schedule').map((s) => `${s.name}${s === DEFAULT_MEASURER ? ' (default)' : ''}: ${s.help}`).join('; ') },
  {
    name: 'rounds',
    kind: 'value',
    value: 'n',
    help: `Rounds (lockstep sets, or fresh processes) per case and runtime; fixes the count unless --target is given (default: at least ${BENCH_DEFAULTS.rounds}, adaptive; --compare ${COMPARE_DEFAULTS.rounds})`,
  },
  { name: 'target', kind: 'value', value: 'percent', help: `Add rounds until every ratio's 95% CI is within ± this (default ${pct(BENCH_DEFAULTS.target)} for a table)` },
  { name: 'max-rounds', kind: 'value', value: 'n', help: `Adaptive: at most this many rounds per case (default ${BENCH_DEFAULTS.maxRounds}; --compare ${COMPARE_DEFAULTS.maxRounds}, under --stop decided the fixed design's ${COMPARE_DEFAULTS.rounds})` },
  { name: 'max-time', kind: 'value', value: 'duration', help: `Adaptive: start no round after this much wall time (default ${BENCH_DEFAULTS.maxTime} for a table)` },
  {
    name: 'stop',
    kind: 'value',
    value: 'rule',
    help: `Adaptive: when a case stops getting rounds: precise (default: every ratio's interval within ±--target) or decided (each ratio decided on an interval valid at every look, or out of the budget's reach; from ${DECIDED_MIN_PAIRS.bench} process pairs (--compare: ${DECIDED_MIN_PAIRS.compare}), each round sampled as long as the fixed design's)`,
  },
  { name: 'timeout', kind: 'value', value: 'duration', help: 'Kill a runtime process after this long (default max(60s, 20x its budget))' },
  MAX_MEMORY_OPTION,
  { name: 'seed', kind: 'value', value: 'n', help: 'Seed for the order of runtimes within a round' },
  { name: 'shard', kind: 'value', value: 'i/n', help: 'Measure the i-th of n shares of the cases (one per CI machine; combine them with rtbench merge)' },
  saveOption('Save the run (JSON, raw samples) here instead of results/<time>-<suite>.json'),
  {
    name: 'profile',
    kind: 'flag-or-value',
    value: 'kinds',
    help: `After the run, profiles of each case on each variant in an extra process. cpu (the default): top functions by self time, .cpuprofile files; alloc: top functions by allocated bytes, with bytes per call, .heapprofile files (${runtimePlugins().filter((p) => !isUnavailable(p.allocationProfile)).map((p) => p.name).join(', ')}); native: a perf profile with the engine’s own C++ frames and the named JIT code, .native.cpuprofile files (needs linux-perf); several comma-separated (cpu,native). With --compare, where the time (the bytes) moved`,
  },
  { name: 'html', kind: 'flag-or-value', value: 'file', help: 'Also write the HTML report (charts), to this file or beside the saved run' },
  {
    name: 'strict',
    kind: 'flag',
    help: 'Exit 1 when a case is without work on some variant (it returns undefined, or takes no longer than an empty call: marked ∅), naming the cases in one line after the run is saved',
  },
  ...OUTPUT_OPTIONS,
  ...GLOBAL_OPTIONS,
] as const satisfies readonly OptionSpec[];

/** run's options: bench's, and compare.js's --set for Node core benchmark files. */
const RUN_OPTIONS = [
  {
    name: 'set',
    kind: 'list',
    value: 'key=value',
    help: 'A Node.js core benchmark file: run only these values of one of its configurations, as compare.js --set does (repeat it; a key given several times takes each value)',
  },
  {
    name: 'request',
    kind: 'list',
    value: 'request',
    help: 'A Worker: a request to send, "[METHOD] /path [header:value ...] [@body-file]", each its own case (repeat it; default GET /)',
  },
  {
    name: 'requests',
    kind: 'value',
    value: 'file',
    help: 'A Worker: a JSON mix of requests with weights, one case: [{ "name", "weight", "request": "POST /api @body.json" }] or { "mix": [...], "requests": n, "compareHeaders": [...], "normalize": [...] }',
  },
  { name: 'normalize', kind: 'list', value: 'regex', help: "A Worker: each response's matches of this regular expression are replaced by one mark before responses are compared (same work), for a value masking cannot see: a value fixed per process, an id of no known shape (repeat it)" },
  ...BENCH_OPTIONS,
] as const satisfies readonly OptionSpec[];

const BISECT_OPTIONS = [
  { name: 'filter', kind: 'list', value: 'pattern', help: 'The one case to follow (its id contains this text, or matches /regex/); required' },
  { name: 'measure', kind: 'value', value: 'what', help: 'time (default: lockstep sets holding both releases), or instructions: counted under valgrind, for a change the neighbours cannot move' },
  {
    name: 'threshold',
    kind: 'value',
    value: 'percent',
    help: `A change smaller than this is not one (default ${pct(TIMING_THRESHOLD)}; instructions: the engine's, ${runtimeEngines().flatMap((e) => (e.counting ? [`${e.displayName} ${pct(e.counting.threshold)}`] : [])).join(', ')})`,
  },
  { name: 'rounds', kind: 'value', value: 'n', help: `Paired rounds of a comparison's first measurement; undecided, it is measured again with as many more (default ${bisectRounds(DEFAULT_MEASURER).min}${ownBisectRounds('min')})` },
  { name: 'max-rounds', kind: 'value', value: 'n', help: `A comparison still undecided at this many rounds is reported undecided (default ${bisectRounds(DEFAULT_MEASURER).max}${ownBisectRounds('max')})` },
  { name: 'time', kind: 'value', value: 'duration', help: `Sampling time per process and round (default ${BISECT_DEFAULTS.timePerRoundMs}ms)` },
  { name: 'warmup', kind: 'value', value: 'duration', help: `Warmup in each process, at least (default ${COMPARE_DEFAULTS.warmup})` },
  FIXED_WARMUP_OPTION,
  { name: 'budget', kind: 'value', value: 'duration', help: `Start no measurement that would end past this much time (default ${BISECT_DEFAULTS.budgetMs / 60_000}m); the same command continues later` },
  { name: 'dir', kind: 'value', value: 'folder', help: 'Where the runs and the state are saved (default results/bisect/<range-suite-case-measure>); a bisect there with the same arguments is continued' },
  { name: 'html', kind: 'flag-or-value', value: 'file', help: 'Also write the releases measured as an HTML chart (default <folder>/bisect.html)' },
  { name: 'all-changes', kind: 'flag', help: 'Follow every change beyond the threshold to its release (default: the largest, naming the smaller ones met on the way)' },
  { name: 'clean', kind: 'flag', help: 'At the end, remove the releases this bisect installed into the runtime cache' },
  { name: 'timeout', kind: 'value', value: 'duration', help: 'Kill a runtime process after this long' },
  MAX_MEMORY_OPTION,
  { name: 'format', kind: 'value', value: 'format', help: 'terminal (default: the answer, the steps, the releases as a series) or json (the search, its steps and the engines)', section: 'Output' },
  ...PRINTING_OPTIONS,
  ...GLOBAL_OPTIONS,
] as const satisfies readonly OptionSpec[];

const RELEASES_OPTIONS = [
  { name: 'filter', kind: 'list', value: 'pattern', help: 'Only cases whose id contains this text (or matches /regex/); commas for several; !text leaves out what it matches' },
  { name: 'every', kind: 'value', value: 'n', help: 'Measure every n-th release of each range (both ends kept); a change point then names the bisect that finds its step' },
  { name: 'sets', kind: 'value', value: 'n', help: `Sets of processes per window of releases (default ${MATRIX_DEFAULTS.sets}, ${MATRIX_DEFAULTS.setsPerProcess} per warm process)` },
  { name: 'window', kind: 'value', value: 'n', help: `Most releases measured side by side in one set (default ${MATRIX_DEFAULTS.window}); longer ranges are cut into windows that share a release` },
  { name: 'time', kind: 'value', value: 'duration', help: `Sampling time per process, case and set (default ${MATRIX_DEFAULTS.timePerSetMs}ms)` },
  { name: 'warmup', kind: 'value', value: 'duration', help: `Warmup in each process, at least (default ${COMPARE_DEFAULTS.warmup})` },
  FIXED_WARMUP_OPTION,
  { name: 'threshold', kind: 'value', value: 'percent', help: `A change smaller than this is not one (default ${pct(TIMING_THRESHOLD)})` },
  { name: 'budget', kind: 'value', value: 'duration', help: `Start no window that would end past this much time (default ${MATRIX_DEFAULTS.budgetMs / 60_000}m); the same command continues later` },
  { name: 'shard', kind: 'value', value: 'i/n', help: 'Measure only this share of the tracks (a runtime × suite is never split); rtbench merge <folders> --save <folder> joins the shards' },
  { name: 'dir', kind: 'value', value: 'folder', help: 'Where the runs, the state, the page and the report are kept (default results/releases/<ranges-suites>); the same command there continues' },
  { name: 'plan', kind: 'flag', help: 'Print the plan (releases, cases, processes, estimated time) and stop' },
  { name: 'claims', kind: 'list', value: 'path', help: "Saved claims runs (a folder rtbench claims --across saved, or a run file; repeat for several): each claim's word on the releases of a track they checked, kept in the folder and drawn as claims × releases" },
  { name: 'timeout', kind: 'value', value: 'duration', help: 'Kill a runtime process after this long' },
  { name: 'format', kind: 'value', value: 'format', help: 'terminal (default: the last step of each runtime, the change points and their commands) or json (the matrix view)', section: 'Output' },
  ...PRINTING_OPTIONS,
  ...GLOBAL_OPTIONS,
] as const satisfies readonly OptionSpec[];

const HISTORY_OPTIONS = [
  { name: 'filter', kind: 'list', value: 'pattern', help: 'Only cases whose id contains this text (or matches /regex/); commas for several; !text leaves out what it matches' },
  { name: 'runtime', kind: 'list', value: 'list', help: 'Only these variants, comma-separated, as the runs name them (node@26, "node@26 --jitless")' },
  {
    name: 'format',
    kind: 'value',
    value: 'format',
    help: 'Output format: terminal, markdown, json, csv (one row per point; csv-stats the same), html (a line chart per case) (default terminal)',
    section: 'Output',
  },
  ...PRINTING_OPTIONS,
  { name: MARKDOWN_FLAG, kind: 'flag', help: `Same as --format ${MARKDOWN_FLAG}`, section: 'Output' },
  { name: 'threshold', kind: 'value', value: 'percent', help: `A change smaller than this is not a change point (default ${pct(TIMING_THRESHOLD)})`, section: 'Output' },
  {
    name: 'fail-on-regression',
    kind: 'value',
    value: 'percent',
    help: 'Exit 1 if the newest run is a change point slower than the run before it by more than this, on any case × variant',
    section: 'Output',
  },
  ...GLOBAL_OPTIONS,
] as const satisfies readonly OptionSpec[];

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

/** A command whose action gets its options typed by its own declarations; `measurers`: it also takes the measurers' own options, handed on as measurerOptions. */
function command<const O extends readonly OptionSpec[]>(spec: {
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
    run: (positionals, flags) => spec.run(positionals, { ...(flags as FlagsOf<O>), ...(spec.measurers ? { measurerOptions: MEASURERS.optionValues((name) => flags[camelName(name)]) } : {}) }),
  };
}

const viewOptions = [...OUTPUT_OPTIONS, ...GLOBAL_OPTIONS] as const;
const compareOptions = [
  ...OUTPUT_OPTIONS,
  {
    name: 'flagged',
    kind: 'value',
    value: 'file',
    help: 'With --fail-on-regression: write the regressed cases to this file as a --filter value, for a fresh rerun of those cases only that must confirm the regression before a gate fails (an empty file when none)',
    section: 'Output',
  },
  ...GLOBAL_OPTIONS,
] as const satisfies readonly OptionSpec[];

export const COMMANDS: readonly Command[] = [
  command({
    name: 'bench',
    positionals: [{ name: 'suite', required: true, missing: 'name a suite (`rtbench suites` lists them) or a suite folder' }],
    summary: 'Run a suite on one or more runtimes and print a table; with --compare, a verdict per case',
    options: BENCH_OPTIONS,
    measurers: true,
    run: ([suite], flags) => benchCommand(suite!, flags),
  }),
  command({
    name: 'run',
    positionals: [{ name: 'file', required: true, missing: `name a benchmark file written for ${RUN_TARGETS_IN_WORDS}` }],
    summary: `Run a benchmark file written for ${BROUGHT_FORMATS_IN_WORDS}, or a Worker (a module, a wrangler project), unchanged; it takes bench's options`,
    options: RUN_OPTIONS,
    measurers: true,
    run: ([file], flags) => {
      const set = flags.set ?? [];
      const request = flags.request ?? [];
      const problem = broughtFileProblem(file!);
      // A file written for a benchmark harness is one, whatever else it exports (as the suite loader decides).
      if (problem !== undefined && isWorkerTarget(file!)) {
        if (set.length) throw new UsageError(`--set sets a configuration of a Node.js core benchmark file; ${file} is a Worker (its requests: --request or --requests)`);
        const worker = { request, ...(flags.requests !== undefined ? { requests: flags.requests } : {}), ...(flags.normalize ? { normalize: flags.normalize } : {}) };
        return benchCommand(file!, { ...flags, brought: { worker } });
      }
      if (problem) throw new UsageError(problem);
      if (request.length || flags.requests !== undefined || flags.normalize) throw new UsageError(`--request, --requests and --normalize are a Worker's; ${file} is a benchmark file, not a Worker`);
      checkBroughtFile(file!, set);
      return benchCommand(file!, { ...flags, brought: { set } });
    },
  }),
  command({
    name: 'compare',
    positionals: [
      { name: 'run', required: true, missing: 'name a saved run made with --compare (paired verdicts), or two saved runs (unpaired)' },
      { name: 'other' },
    ],
    summary: 'Verdicts from saved runs: one run made with --compare (paired), or two runs (unpaired)',
    options: compareOptions,
    run: (files, flags) => compareFilesCommand([...files], flags),
  }),
  command({
    name: 'merge',
    positionals: [{ name: 'shards', required: true, variadic: true, missing: 'name the shard runs (bench --shard i/n) to combine' }],
    summary: 'Combine shard runs (bench --shard i/n on several machines) into one run and show it',
    options: [saveOption('Where to save the merged run (required)'), ...viewOptions],
    run: (files, flags) => mergeCommand(files, flags),
  }),
  command({
    name: 'report',
    positionals: [{ name: 'run' }],
    summary: 'Render a saved run (default: the newest in results/)',
    options: viewOptions,
    run: ([file], flags) => reportCommand(file, flags),
  }),
  command({
    name: 'history',
    positionals: [{ name: 'paths', variadic: true }],
    summary: 'Each case × variant across saved runs (run files or folders of them; default: results/), in commit order, with change points marked',
    details: [
      'Orders the runs by the project commit each recorded (git rev-list --topo-order in this checkout; runs at one commit by start time), or by start time when a run has no commit the checkout knows; the output says which.',
      "Per case and variant (the variant id: runtime as named, flags, environment) it shows each run's median of process medians. A change point is a run whose process medians differ from the previous run's (of the same case and variant): the unpaired Hodges-Lehmann ratio with its Mann-Whitney CI, Benjamini-Hochberg across every such comparison shown; marked when the CI excludes 1, the change is beyond --threshold and q < 5%. A new binary under the same variant does not break the series; its point is marked.",
      'Not --format bmf (bencher keeps its own history of the runs it is given).',
    ],
    options: HISTORY_OPTIONS,
    run: (paths, flags) => historyCommand(paths, flags),
  }),
  command({
    name: 'bisect',
    positionals: [
      { name: 'range', required: true, missing: 'name a range of releases: node@24.0.0..node@26.10.0 (flags and ENV=value may follow, quoted with it)' },
      { name: 'suite', required: true, missing: 'name a suite or a benchmark file, and the case with --filter' },
    ],
    summary: 'Find the release (and engine version) where a case got faster or slower, between two releases of one runtime',
    details: [
      "Releases come from the npm registry's list and install into the runtime cache on first use. The ends are compared first; if they differ beyond --threshold, the range is split where the difference lies until each change sits between adjacent releases, and each is confirmed by a fresh direct comparison. Each comparison is a paired one (bench --compare of the two releases), measured again with twice the rounds while undecided.",
      `Every measurement is saved as a run in the bisect's folder (rtbench history <folder> draws them); run the same command again after an interruption or the --budget to continue. Exit 0: answered; 1: a culprit not confirmed, or undecided; ${75}: budget reached.`,
    ],
    options: BISECT_OPTIONS,
    run: ([range, suite], flags) => bisectCommand(range!, suite!, flags),
  }),
  command({
    name: 'releases',
    positionals: [{ name: 'targets', required: true, variadic: true, missing: 'name ranges of releases (node@25.8.0..node@26.1.0, bun@latest~3), then suites' }],
    summary: 'Every release of one or more runtimes on every case of the suites: each adjacent step\'s paired verdict, change points located, kept up to date',
    details: [
      "Releases come from the npm registry's list. A runtime's adjacent releases are measured side by side as variants of one comparison (windows of up to --window releases sharing one release), so each step is paired inside the same sets of processes; every step of every case is read together (Benjamini-Hochberg). A change point names both releases, their engines, and the bench --compare that reproduces it.",
      `The folder keeps every run: stopped (Ctrl-C, --budget) the same command continues; run again after a release is published, it measures only the new step, in fresh sets. It writes releases.html (the page) and releases.md (the report) there. Exit 0: drawn; ${75}: budget reached; 130, 143 or 129: stopped by Ctrl-C, SIGTERM or SIGHUP.`,
    ],
    options: RELEASES_OPTIONS,
    run: (targets, flags) => releasesCommand(targets, flags),
  }),
  command({
    name: 'claims',
    positionals: [{ name: 'suites', variadic: true }],
    summary: CLAIMS_SUMMARY,
    details: CLAIMS_DETAILS,
    options: [...CLAIMS_OPTIONS, OUTPUT_OPTIONS[0], ...PRINTING_OPTIONS, OUTPUT_OPTIONS[4], OUTPUT_OPTIONS[7], ...GLOBAL_OPTIONS],
    run: (suites, flags) => claimsCommand(suites, flags),
  }),
  command({
    name: 'runtimes',
    positionals: [],
    summary: 'List the runtimes rtbench can run, with versions, engines and binaries',
    options: [
      {
        name: 'platform',
        kind: 'value',
        value: 'os-arch',
        help: `For another platform (${PLATFORMS.join(', ')}): each pinned runtime's npm package there, and which measurers and host tools work there, as declared; nothing is looked for or installed`,
      },
      ...LISTING_OPTIONS,
    ],
    run: (_, flags) => runtimesCommand(flags),
  }),
  command({
    name: 'suites',
    positionals: [],
    summary: 'List the suites',
    options: LISTING_OPTIONS,
    run: (_, flags) => {
      const suites = listSuites();
      const names = suites.map((s) => s.name);
      writeListing(listingFormat(flags) === 'json' ? `${JSON.stringify(names, null, 2)}\n` : suitesText(suites), flags);
      return 0;
    },
  }),
];

/** One line per suite, its name and what it measures (its README's heading), within 100 columns; then where the rest is said. */
function suitesText(suites: readonly SuiteLocation[]): string {
  const width = Math.max(0, ...suites.map((s) => displayWidth(s.name)));
  const lines = suites.map((s) => {
    return truncateToWidth(`${padToWidth(s.name, width)}  ${suiteSummary(s) ?? ''}`.trimEnd(), 100);
  });
  return `${[...lines, '', "Each suite's README (bench/<suite>/README.md) says what its cases measure and how to read them,", 'e.g. why ssr sets NODE_ENV=production; `rtbench bench --help` lists the options.'].join('\n')}\n`;
}

/** Every option any command takes (to find the command on a line whose options come first). */
export const ALL_OPTIONS: readonly OptionSpec[] = [...new Map(COMMANDS.flatMap((c) => c.options).map((o) => [camelName(o.name), o])).values()];
