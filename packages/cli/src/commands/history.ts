/**
 * `rtbench history [results-dir-or-files…]`: every saved run read, put in
 * commit order (or start time), and shown as the figure of each case ×
 * variant across them with change points marked. load -> order -> view ->
 * emit. A file that cannot be read is said in one line and left out.
 */
import { chooseOrder, claimFlipNotes, counted, DEFAULT_LAST_RUNS, historyViewOf, printable, streamedHistoryJson, withWindowNote } from '@rtbench/report';
import type { HistoryView, Note, Reporter } from '@rtbench/report';
import { stderrColours as pc } from '../emit/colours.ts';
import { historyFileList, readHistoryRuns } from '@rtbench/saved-runs/history-runs';
import { openHistoryReading, type StoredSeries } from '@rtbench/results-store';
import { emit, emitStreamed, outputReporter, regressionGate, type OutputFlags } from '../emit.ts';
import { UsageError } from '../errors.ts';
import { commitRanks } from '@rtbench/host/git';
import { inCheckout, repoRoot, resultsDir } from '../paths.ts';
import { parseWholeNumber } from '../args/options.ts';
import { failLimit, ratioOptions, thresholdFlag, type VerdictFlags } from '../verdict-flags.ts';
import { info } from '../emit/info.ts';
import type { HistoryEntry } from '@rtbench/verdicts';
import { storedHistoryView, streamedStoredHistory } from '../stored-history.ts';
import type { OptionSpec } from '../args/args.ts';
import { command } from '../options/command.ts';
import { GLOBAL_OPTIONS, MARKDOWN_OPTION, pct, PRINTING_OPTIONS, TIMING_THRESHOLD } from '../options/shared.ts';

interface HistoryFlags extends OutputFlags, VerdictFlags {
  /** Each --filter as typed: comma-separated patterns. */
  filter?: readonly string[];
  /** Each --runtime as typed: a comma-separated list of variant ids. */
  runtime?: readonly string[];
  /** --store: a PostgreSQL URL or a SQLite file every run file is read through. */
  store?: string;
  /** --last N: the newest N runs (and those of change points) shown. */
  last?: string;
  /** --all: every run shown, in any format. */
  all?: true;
}

/** How many of the newest runs the output shows (undefined: every run), from --last, --all and the format. */
function lastRuns(flags: HistoryFlags, reporter: Reporter): number | undefined {
  if (flags.last !== undefined && flags.all) throw new UsageError('--last and --all: choose one');
  if (flags.last !== undefined) return parseWholeNumber(flags.last, '--last', 1, Number.MAX_SAFE_INTEGER);
  // A format a person reads row by row shows the newest runs (report's history-window.ts); the others hold every point.
  return flags.all || !reporter.windowed ? undefined : DEFAULT_LAST_RUNS;
}

/**
 * Every run the paths hold (@rtbench/saved-runs history-runs.ts), each read
 * through its store (@rtbench/results-store: a folder's own, or --store's),
 * and what was said of them on stderr, one line each.
 */
/** The runs read, the files skipped, and the store that answered them all (closed by `close`). */
interface LoadedRuns {
  inputs: HistoryEntry[];
  skipped: string[];
  series?: StoredSeries;
  close: () => Promise<void>;
}

/** The saved-run loader, imported when a file is not answered by a store: it brings the run schema (zod) and every measurer's record. */
const savedRunLoader = { import: async () => (await import('@rtbench/saved-runs')).loadSavedRun };

async function loadRuns(paths: readonly string[], flags: HistoryFlags): Promise<LoadedRuns> {
  const { named: files, absolute } = historyFileList(paths);
  const stored = await openHistoryReading(paths, files, savedRunLoader, flags.store, undefined, absolute);
  try {
    const read = readHistoryRuns(paths, stored.load, files);
    const { inputs } = read;
    const lines = [...stored.lines.map((text) => ({ level: 'info' as const, text })), ...read.lines];
    for (const { level, text } of lines) {
      if (level === 'info') info(flags, text);
      else process.stderr.write(pc.yellow(`${printable(text, { oneLine: true })}\n`));
    }
    const skipped = lines.filter((l) => l.level === 'skipped').map((l) => printable(l.text, { oneLine: true }));
    return { inputs, skipped, ...(stored.series ? { series: stored.series } : {}), close: stored.close };
  } catch (error) {
    await stored.close();
    throw error;
  }
}

/** --runtime's variants by id: the variant syntax is read by the arms, loaded only when --runtime is given, since they know the plug-ins. */
async function variantIds(list: string): Promise<string[]> {
  const { parseRuntimeList } = await import('@rtbench/arms');
  return parseRuntimeList(list).map((v) => v.id);
}

async function historyCommand(paths: readonly string[], flags: HistoryFlags): Promise<number> {
  const reporter = outputReporter(flags, paths);
  const refused = reporter.refuses?.history;
  if (refused !== undefined) throw new UsageError(`--format ${reporter.format}: ${refused}`);
  thresholdFlag(flags);
  const limit = failLimit(flags);
  const last = lastRuns(flags, reporter);
  // Several --runtime (or --filter) are one list, as commas make it.
  const runtimes = flags.runtime?.join(',');
  const wantedVariants = runtimes !== undefined ? await variantIds(runtimes) : undefined;
  const roots = paths.length ? paths : [resultsDir];
  const loaded = await loadRuns(roots, flags);
  try {
    return await historyOf(loaded, flags, { reporter, last, limit, runtimes, wantedVariants, roots, given: paths.length > 0 });
  } finally {
    await loaded.close();
  }
}

interface Asked {
  reporter: Reporter;
  last: number | undefined;
  limit: number | undefined;
  runtimes: string | undefined;
  wantedVariants: string[] | undefined;
  roots: readonly string[];
  given: boolean;
}

/** The case ids --filter picks; its matcher (re2js) loaded only then: a history without a --filter never parses it. */
async function pickedCases(cases: readonly { id: string }[], filter: readonly string[]): Promise<Set<string>> {
  const { filterCases } = await import('@rtbench/suite-loader/case-filter');
  return new Set(filterCases(cases, filter.join(',')).map((c) => c.id));
}

/**
 * The history of the runs read: ordered, its first walk made by the store's
 * cursor where one store answered every run (only the runs its window reads
 * are then read whole), viewed and emitted; the gate's exit code.
 */
async function historyOf({ inputs, skipped, series }: LoadedRuns, flags: HistoryFlags, asked: Asked): Promise<number> {
  const { reporter, last, limit, runtimes, wantedVariants, roots, given } = asked;
  if (!inputs.length) throw new UsageError(`no readable rtbench runs in ` +
    `${roots.join(', ')}${given ? '' : '; run `rtbench bench <suite>` first or name files'}`);

  const allCases = [...new Set(inputs.flatMap((x) => x.record.cases.map((c) => c.id)))].map((id) => ({ id }));
  const picked = flags.filter !== undefined ? await pickedCases(allCases, flags.filter) : undefined;
  if (wantedVariants) {
    const present = new Set(inputs.flatMap((x) => x.record.variants.map((v) => v.id)));
    if (!wantedVariants.some((v) => present.has(v))) throw new UsageError(`--runtime ${runtimes}: no run has ` +
      `${wantedVariants.length === 1 ? 'that variant' : 'those variants'}; the runs have ${[...present].map((v) => `"${v}"`).join(', ')}`);
  }

  // Runs record the rtbench checkout's commit (an installed rtbench records none): that checkout is the one to ask.
  const dir = inCheckout ? repoRoot : process.cwd();
  const commits = inputs.flatMap((x) => (x.record.git ? [x.record.git.commit] : []));
  const ranks = commits.length ? commitRanks(dir, commits) : undefined;
  const unordered = commits.length ? `${dir} is not a git checkout` : 'no run recorded a project commit';
  const order = chooseOrder(inputs.map((x) => x.record), ranks, ranks ? dir : unordered);
  const notes: Note[] = skipped.length ? [{
    level: 'warning',
    text: `${counted(skipped.length, 'file')} skipped (not readable rtbench runs): ${skipped.map((s) => s.replace(/^skipped /, '')).join('; ')}`,
  }] : [];
  const options = {
    ...ratioOptions(flags, inputs.map((x) => x.record.verdict)),
    order,
    ...(picked ? { caseFilter: (id: string) => picked.has(id), pickedCases: picked } : {}),
    ...(wantedVariants ? { variants: wantedVariants } : {}),
    notes,
    // A window's points only: ten thousand runs' points are never built to be left out.
    ...(last !== undefined ? { last } : {}),
  };
  // Runs made by `rtbench claims`: when a claim changed its word, in the view's order.
  const byId = new Map(inputs.map((x) => [x.record.id, x.record]));
  const withClaimNotes = (view: HistoryView): void => {
    const named = (_: unknown, i: number): string => `run ${i + 1}${view.runs[i]!.file ? ` (${view.runs[i]!.file})` : ''}`;
    view.notes.push(...claimFlipNotes(view.runs.map((r) => byId.get(r.runId)!), named));
  };
  if (series && reporter.format === 'json' && last === undefined) {
    // Every point as JSON: written a series at a time as the store is read, never held at once.
    const streamed = await streamedStoredHistory(inputs, series, options);
    try {
      withClaimNotes(streamed.view);
      await emitStreamed(streamedHistoryJson(streamed.view, streamed.pointsOf), reporter, flags);
    } finally {
      await streamed.close();
    }
    return regressionGate(streamed.gated(), limit).exit;
  }
  const view = series ? await storedHistoryView(inputs, series, options) : historyViewOf(inputs, options);
  withClaimNotes(view);
  emit(withWindowNote(view), reporter, flags);
  // The gate reads the newest runs' change points, which every window shows; the FDR step was over every comparison.
  return regressionGate(view, limit).exit;
}

const HISTORY_OPTIONS = [
  {
    name: 'filter',
    kind: 'list',
    value: 'pattern',
    help: 'Only cases whose id contains this text (or matches /regex/); commas for several; !text leaves out what it matches',
  },
  { name: 'runtime', kind: 'list', value: 'list', help: 'Only these variants, comma-separated, as the runs name them (node@26, "node@26 --jitless")' },
  {
    name: 'store',
    kind: 'value',
    value: 'place',
    help: "Read the files through this store: a PostgreSQL server's URL (postgres://…, a fleet's) or a SQLite file (default: each folder's own, inside it)",
  },
  {
    name: 'format',
    kind: 'value',
    value: 'format',
    help: 'Output format: terminal, markdown, json, csv (one row per point; csv-stats the same), html (a line chart per case) (default terminal)',
    section: 'Output',
  },
  {
    name: 'last',
    kind: 'value',
    value: 'n',
    help: `Show the newest n runs and each run a change point is at or compared with ` +
      `(default ${DEFAULT_LAST_RUNS} in the terminal and markdown; every run in the other formats)`,
    section: 'Output',
  },
  { name: 'all', kind: 'flag', help: 'Show every run, in any format', section: 'Output' },
  ...PRINTING_OPTIONS,
  MARKDOWN_OPTION,
  {
    name: 'threshold',
    kind: 'value',
    value: 'percent',
    help: `A change smaller than this is not a change point (default ${pct(TIMING_THRESHOLD)})`,
    section: 'Output',
  },
  {
    name: 'fail-on-regression',
    kind: 'value',
    value: 'percent',
    help: 'Exit 1 if the newest run is a change point slower than the run before it by more than this, on any case × variant',
    section: 'Output',
  },
  ...GLOBAL_OPTIONS,
] as const satisfies readonly OptionSpec[];

export const history = command({
  name: 'history',
  positionals: [{ name: 'paths', variadic: true }],
  summary: 'Each case × variant across saved runs (run files or folders of them; default: results/), in commit order, with change points marked',
  details: [
    'Orders the runs by the project commit each recorded (git rev-list --topo-order in this checkout; runs at one ' +
      'commit by start time), or by start time when a run has no commit the checkout knows; the output says which.',
    "Per case and variant (the variant id: runtime as named, flags, environment) it shows each run's median of process medians. A " +
      "change point is a run whose process medians differ from the previous run's (of the same case and variant): the unpaired Hodges-Lehmann " +
      "ratio with its Mann-Whitney CI, Benjamini-Hochberg across every such comparison shown; marked when the CI excludes 1, " +
      "the change is beyond --threshold and q < 5%. A new binary under the same variant does not break the series; its point is marked.",
    'Not --format bmf (bencher keeps its own history of the runs it is given).',
  ],
  options: HISTORY_OPTIONS,
  run: (paths, flags) => historyCommand(paths, flags),
});
