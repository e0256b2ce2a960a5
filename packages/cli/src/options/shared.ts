/**
 * Options more than one command takes, declared once: the same name means
 * the same on every command that takes it. A command's own options are
 * declared in its module (commands/<name>.ts).
 */
import { formatNames, JSON_FLAG, MARKDOWN_FLAG } from '@rtbench/report';
import type { OptionSpec } from '../args/args.ts';
import { DEFAULT_THRESHOLD } from '@rtbench/stats';
import { GLOBAL_OPTIONS } from './global.ts';

export { GLOBAL_OPTIONS };

export const pct = (x: number): string => `${+(x * 100).toFixed(2)}%`;
/** The noise threshold of the default measurer's verdicts (timing's takes stats' own), named without loading a measurer. */
export const TIMING_THRESHOLD = DEFAULT_THRESHOLD;

/** Taken by bench, run, bisect and releases. */
export const FIXED_WARMUP_OPTION = {
  name: 'fixed-warmup',
  kind: 'flag',
  help: 'Warm each process for --warmup exactly, not until its batch times are steady, take three samples a case whatever --time, not ' +
    'grown to span collections, and no full collection between cases: for smoke runs whose figures are not read (docs/warmup.md)',
} as const satisfies OptionSpec;

/** Said once when a command line still spells the run's file `--out`. */
const OUT_RENAMED = '`--out` is now `--save` (the run as JSON); `-o/--output` writes the rendered --format';

/** Where the run itself is saved; named unlike -o/--output, which writes the rendered output. */
export const saveOption = (help: string) => ({
  name: 'save',
  kind: 'value',
  value: 'file',
  help,
  formerly: { name: 'out', note: OUT_RENAMED },
}) as const satisfies OptionSpec;

/** Taken by every command that prints something: the same names mean the same on all of them. */
export const PRINTING_OPTIONS = [
  {
    name: 'output',
    short: 'o',
    kind: 'value',
    value: 'file',
    help: 'Write the output (any --format) to this file instead of stdout, atomically',
    section: 'Output',
  },
  { name: JSON_FLAG, kind: 'flag', help: `Same as --format ${JSON_FLAG}`, section: 'Output' },
  { name: 'quiet', short: 'q', kind: 'flag', help: 'No progress and no informational lines on stderr (warnings and errors are still said)', section: 'Output' },
] as const satisfies readonly OptionSpec[];

/** The output format of a view of runs. */
export const FORMAT_OPTION = {
  name: 'format',
  kind: 'value',
  value: 'format',
  help: `Output format: ${formatNames().join(', ')} (default terminal; aliases table, md)`,
  section: 'Output',
} as const satisfies OptionSpec;

/** Same as --format markdown. */
export const MARKDOWN_OPTION = {
  name: MARKDOWN_FLAG,
  kind: 'flag',
  help: `Same as --format ${MARKDOWN_FLAG}`,
  section: 'Output',
} as const satisfies OptionSpec;

/** The noise threshold of a view's verdicts. */
export const THRESHOLD_OPTION = {
  name: 'threshold',
  kind: 'value',
  value: 'percent',
  help: `Noise threshold for faster/slower/equivalent (default ${pct(TIMING_THRESHOLD)})`,
  section: 'Output',
} as const satisfies OptionSpec;

/** Taken by every command that ends in a view of runs (bench, run, compare, merge, report). */
export const OUTPUT_OPTIONS = [
  FORMAT_OPTION,
  ...PRINTING_OPTIONS,
  MARKDOWN_OPTION,
  { name: 'plot', kind: 'flag', help: 'Terminal: a distribution plot per case (samples and process medians)', section: 'Output' },
  {
    name: 'metrics',
    kind: 'value',
    value: 'view',
    help: 'Also print metrics: gc (GC by kind per 1k ops, GC time share, bytes/op, heap state; under a comparison, ' +
      'their change) or memory (peak resident memory, heap, bytes outside it, growth per call, leak mark)',
    section: 'Output',
  },
  THRESHOLD_OPTION,
  {
    name: 'fail-on-regression',
    kind: 'value',
    value: 'percent',
    help: 'Exit 1 if a case is significantly slower than the baseline by more than this',
    section: 'Output',
  },
  {
    name: 'explain',
    kind: 'flag',
    help: 'Terminal: under the table, how it was measured and what each column, word and mark means; for request cases, ' +
      'the tables behind the brief lines and each figure in words (markdown and --html always say it)',
    section: 'Output',
  },
  {
    name: 'cpu-limit',
    kind: 'value',
    value: 'duration',
    help: "Request-shaped cases: a CPU limit per request (10ms, 0.5ms, 1s); the view gives the share of requests over it, with its " +
      "interval over processes (a saved run is read with any limit; one saved with a limit shows it unless another is given)",
    section: 'Output',
  },
] as const satisfies readonly OptionSpec[];

/** Commands that list things (runtimes, suites): a table or JSON. */
export const LISTING_OPTIONS = [
  { name: 'format', kind: 'value', value: 'format', help: 'terminal (default) or json', section: 'Output' },
  ...PRINTING_OPTIONS,
  ...GLOBAL_OPTIONS,
] as const satisfies readonly OptionSpec[];

/** What a command that shows saved runs takes. */
export const VIEW_OPTIONS = [...OUTPUT_OPTIONS, ...GLOBAL_OPTIONS] as const;
