/** The options of a measured run: bench's, which run takes too. */
import { isUnavailable } from '@rtbench/host/platform';
import { MEASURERS } from '@rtbench/measurers';
import { runtimePlugins } from '@rtbench/runtime-registry';
import type { OptionSpec } from '../args/args.ts';
import { MAX_MEMORY_OPTION } from '../args/memory-option.ts';
import { DECIDED_MIN_PAIRS, DEFAULT_MEASURER, WARMUP_CAP_FACTOR } from '../plan.ts';
import { FIXED_WARMUP_OPTION, GLOBAL_OPTIONS, OUTPUT_OPTIONS, pct, saveOption } from './shared.ts';
import { BENCH_DEFAULTS, COMPARE_DEFAULTS } from './timing.ts';

/** bench's own options; `run` takes them too. */
export const BENCH_OPTIONS = [
  {
    name: 'runtime',
    kind: 'list',
    value: 'list',
    help: 'Comma-separated variants, e.g. node@24,deno or "node@26 --max-semi-space-size=64"; the first is the baseline',
  },
  {
    name: 'compare',
    kind: 'trailing',
    value: 'variants',
    help: `Compare variants with a verdict per case, the first is the baseline: --compare node@24 node@26 ` +
      `(defaults ${COMPARE_DEFAULTS.rounds} rounds, --time ${COMPARE_DEFAULTS.time}); commas also separate them`,
  },
  {
    name: 'filter',
    kind: 'list',
    value: 'pattern',
    help: 'Only cases whose id contains this text (or matches /regex/); commas for several; !text leaves out what it matches',
  },
  {
    name: 'time',
    kind: 'value',
    value: 'duration',
    help: `Sampling time per case and runtime over --rounds (default ${BENCH_DEFAULTS.time}; --compare ${COMPARE_DEFAULTS.time})`,
  },
  {
    name: 'warmup',
    kind: 'value',
    value: 'duration',
    help: `Warmup in each process, at least; it goes on until the batch times are steady within the engine's horizons, up to the engine's ` +
      `maximum or ${WARMUP_CAP_FACTOR}x this (docs/warmup.md) (default ${BENCH_DEFAULTS.warmup}; --compare ${COMPARE_DEFAULTS.warmup})`,
  },
  FIXED_WARMUP_OPTION,
  {
    name: 'measure',
    kind: 'value',
    value: 'what',
    help: `time (default), or ${MEASURERS.chosenBy('measure').map((m) => `${m.name}: ${m.help}${m.needs ? `; needs ${m.needs}` : ''}`).join('; or ')}`,
  },
  {
    name: 'schedule',
    kind: 'value',
    value: 'kind',
    help: MEASURERS.chosenBy('schedule').map((s) => `${s.name}${s === DEFAULT_MEASURER ? ' (default)' : ''}: ${s.help}`).join('; '),
  },
  {
    name: 'rounds',
    kind: 'value',
    value: 'n',
    help: `Rounds (lockstep sets, or fresh processes) per case and runtime; fixes the count unless --target is ` +
      `given (default: at least ${BENCH_DEFAULTS.rounds}, adaptive; --compare ${COMPARE_DEFAULTS.rounds})`,
  },
  {
    name: 'target',
    kind: 'value',
    value: 'percent',
    help: `Add rounds until every ratio's 95% CI is within ± this (default ${pct(BENCH_DEFAULTS.target)} for a table)`,
  },
  {
    name: 'max-rounds',
    kind: 'value',
    value: 'n',
    help: `Adaptive: at most this many rounds per case (default ${BENCH_DEFAULTS.maxRounds}; --compare ` +
      `${COMPARE_DEFAULTS.maxRounds}, under --stop decided the fixed design's ${COMPARE_DEFAULTS.rounds})`,
  },
  {
    name: 'max-time',
    kind: 'value',
    value: 'duration',
    help: `Adaptive: start no round after this much wall time (default ${BENCH_DEFAULTS.maxTime} for a table)`,
  },
  {
    name: 'stop',
    kind: 'value',
    value: 'rule',
    help: `Adaptive: when a case stops getting rounds: precise (default: every ratio's interval within ±--target) or decided ` +
      `(each ratio decided on an interval valid at every look, or out of the budget's reach; from ${DECIDED_MIN_PAIRS.bench} ` +
      `process pairs (--compare: ${DECIDED_MIN_PAIRS.compare}), each round sampled as long as the fixed design's)`,
  },
  { name: 'timeout', kind: 'value', value: 'duration', help: 'Kill a runtime process after this long (default max(60s, 20x its budget))' },
  MAX_MEMORY_OPTION,
  { name: 'seed', kind: 'value', value: 'n', help: 'Seed for the order of runtimes within a round' },
  { name: 'shard', kind: 'value', value: 'i/n', help: 'Measure the i-th of n shares of the cases (one per CI machine; combine them with rtbench merge)' },
  saveOption(
    'Save the run (JSON, raw samples) here instead of results/<time>-<suite>.json; ' +
      'a name ending .json.gz saves it compressed with gzip (a quarter of the size or less), read by every command as it is',
  ),
  {
    name: 'profile',
    kind: 'flag-or-value',
    value: 'kinds',
    help:
      'After the run, profiles of each case on each variant in an extra process. cpu (the default): top functions by self time, .cpuprofile files; ' +
      'alloc: top functions by allocated bytes, with bytes per call, .heapprofile files ' +
      `(${runtimePlugins().filter((p) => !isUnavailable(p.allocationProfile)).map((p) => p.name).join(', ')}); ` +
      'native: a perf profile with the engine’s own C++ frames and the named JIT code, .native.cpuprofile files (needs linux-perf); ' +
      'several comma-separated (cpu,native). With --compare, where the time (the bytes) moved',
  },
  { name: 'html', kind: 'flag-or-value', value: 'file', help: 'Also write the HTML report (charts), to this file or beside the saved run' },
  {
    name: 'strict',
    kind: 'flag',
    help: 'Exit 1 when a case is without work on some variant (it returns undefined, or takes no ' +
      'longer than an empty call: marked ∅), naming the cases in one line after the run is saved',
  },
  {
    name: 'self-check',
    kind: 'flag',
    help: 'Each case measured again on each runtime alone, in halves before and after the table, and in a long loop (fresh processes calling it back to ' +
      'back), every cell printed beside both and marked where what ran beside it moved its figure beyond the drift between the halves; the runs saved in ' +
      'a folder beside the table\'s (docs/reading-the-table.md)',
  },
  ...OUTPUT_OPTIONS,
  ...GLOBAL_OPTIONS,
] as const satisfies readonly OptionSpec[];
