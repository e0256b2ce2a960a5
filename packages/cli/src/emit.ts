/**
 * The end of every command: a view rendered by the reporter --format names
 * (and the sections it prints after it), on stdout. --json and --markdown
 * are aliases of --format json / markdown.
 */
import { once } from 'node:events';
import { colourOn, columnsOf, stderrColours as pc } from './emit/colours.ts';
import {
  benchRatiosWithoutWork,
  comparisonRatiosWithoutWork,
  counted,
  defaultReporter,
  formatNames,
  formatPercent,
  formatRatio,
  formatThreshold,
  JSON_FLAG,
  jsonPrintable,
  MARKDOWN_FLAG,
  METRICS_VIEWS,
  metricsSection,
  printable,
  reporterFor,
  verdictWords,
  worseThan,
  type MetricsViewName,
  type Reporter,
  type View,
} from '@rtbench/report';
import { judgedRatios, regressionsOf } from '@rtbench/verdicts';
import { UsageError } from './errors.ts';
import { writeFileAtomically, writeFileAtomicallyFrom } from '@rtbench/host/files';
import { assertWritableOutput } from '@rtbench/saved-runs/results-file';
import { outputFileOf } from '@rtbench/saved-runs/output-place';
import { info, type QuietFlag } from './emit/info.ts';

export interface OutputFlags extends QuietFlag {
  format?: string;
  json?: boolean;
  markdown?: boolean;
  plot?: boolean;
  /** --explain: the method under the table in full. */
  explain?: boolean;
  /** A metrics view to print after the main one ("gc", "memory"). */
  metrics?: string;
  /** -o, --output: write the view to this file (atomically) instead of stdout. */
  output?: string;
}

/** `--metrics <view>`: a section after the main view, in the formats that print sections (json, csv and html carry the run itself). */
function parseMetricsView(value: unknown): MetricsViewName | undefined {
  if (value === undefined) return undefined;
  if (Object.hasOwn(METRICS_VIEWS, String(value))) return value as MetricsViewName;
  throw new UsageError(`--metrics ${String(value)}: expected ${Object.entries(METRICS_VIEWS).map(([name, what]) => `${name} (${what})`).join(' or ')}`);
}

/** The reporter asked for (default: the terminal table); conflicting choices are a usage error. */
/** `inputs`: the files the command reads, which the output must not replace. */
export function outputReporter(flags: OutputFlags, inputs: readonly string[] = []): Reporter {
  parseMetricsView(flags.metrics);
  const asked = [flags.markdown ? MARKDOWN_FLAG : undefined, flags.json ? JSON_FLAG : undefined, flags.format].filter((f): f is string => f !== undefined);
  const reporters = asked.map((f) => {
    const r = reporterFor(f);
    if (!r) throw new UsageError(`--format ${f}: expected one of ${formatNames().join(', ')} (or table, md)`);
    return r;
  });
  const names = new Set(reporters.map((r) => r.format));
  if (names.size > 1) throw new UsageError(`choose one output format (got ${[...names].join(' and ')})`);
  // Checked before anything runs: a bad place for the report costs nothing measured.
  const file = outputFileOf(flags.output);
  if (file !== undefined) assertWritableOutput(file, '--output', inputs);
  return reporters[0] ?? defaultReporter();
}

/**
 * What a run holds (case names, messages, stderr) is written as text: JSON
 * formats escape C1 controls (the same data); the page escapes for itself;
 * text formats show every control character and escape sequence but the
 * colours of a coloured terminal (where a case's own colour codes pass too:
 * they change colours, nothing else).
 */
function safeOutput(reporter: Reporter, text: string, colour: boolean): string {
  if (reporter.escaping === 'json') return jsonPrintable(text);
  if (reporter.escaping === 'page') return text;
  return printable(text, { keepColours: colour });
}

/** Bytes gathered into one write, for a view written in parts. */
const CHUNK_CHARS = 1 << 16;

/** A view's parts made safe (`safe`) and gathered into writes of about CHUNK_CHARS characters. */
function* chunks(parts: Iterable<string>, safe: (part: string) => string): Generator<string> {
  let pending = '';
  for (const part of parts) {
    pending += safe(part);
    if (pending.length >= CHUNK_CHARS) {
      yield pending;
      pending = '';
    }
  }
  if (pending) yield pending;
}

export function emit(view: View, reporter: Reporter, flags: OutputFlags, stream: NodeJS.WriteStream = process.stdout): void {
  // -o: the file gets what stdout would have had, without colour, at 100 columns; nothing of pnpm's or the file's own output.
  const file = outputFileOf(flags.output);
  const toFile = file !== undefined && stream === process.stdout;
  const colour = !toFile && colourOn(stream);
  const columns = toFile ? 100 : columnsOf(stream);
  // --metrics gc / memory: a section after the view, in the formats that print sections.
  const { sections } = reporter;
  const asked = parseMetricsView(flags.metrics);
  const metrics = sections && asked ? metricsSection(view, asked) : undefined;
  const options = { color: colour, columns, plot: flags.plot === true, explain: flags.explain === true };
  const after = sections && metrics ? sections.metrics(metrics, options) : '';
  const parts = after ? undefined : reporter.parts?.(view);
  if (parts) {
    const safe = chunks(parts, (part) => safeOutput(reporter, part, colour));
    if (toFile) {
      writeFileAtomically(file, safe);
      info(flags, `wrote ${file}`);
    } else for (const chunk of safe) stream.write(chunk);
    return;
  }
  const text = safeOutput(reporter, reporter.render(view, options) + after, colour);
  if (!toFile) return void stream.write(text);
  writeFileAtomically(file, text);
  info(flags, `wrote ${file}`);
}

/**
 * A view's text from parts made as they are read (a history's JSON a series
 * at a time: report's streamedHistoryJson), written as emit writes a view's
 * parts: made safe, in writes of about CHUNK_CHARS characters, to stdout or
 * atomically to -o's file.
 */
export async function emitStreamed(parts: AsyncIterable<string>, reporter: Reporter, flags: OutputFlags): Promise<void> {
  const stream = process.stdout;
  const file = outputFileOf(flags.output);
  const toFile = file !== undefined;
  const colour = !toFile && colourOn(stream);
  async function* safe(): AsyncGenerator<string> {
    let pending = '';
    for await (const part of parts) {
      pending += safeOutput(reporter, part, colour);
      if (pending.length >= CHUNK_CHARS) {
        yield pending;
        pending = '';
      }
    }
    if (pending) yield pending;
  }
  if (!toFile) {
    // A pipe takes its writes later: waiting for it to drain keeps what is held to a chunk or so, not the whole text.
    for await (const chunk of safe()) if (!stream.write(chunk)) await once(stream, 'drain');
    return;
  }
  await writeFileAtomicallyFrom(file, safe());
  info(flags, `wrote ${file}`);
}

/**
 * A section printed after the view and its saved run (the self-check's):
 * on stdout in a format that prints sections, else on stderr in the
 * default format's words, coloured where that stream is a colour terminal.
 */
export function emitAfter(
  render: (sections: NonNullable<Reporter['sections']>, options: { color: boolean; columns: number }) => string,
  reporter: Reporter,
): void {
  const stream = reporter.sections ? process.stdout : process.stderr;
  const colour = colourOn(stream);
  const shown = reporter.sections ? reporter : defaultReporter();
  stream.write(`\n${safeOutput(shown, render(shown.sections!, { color: colour, columns: columnsOf(stream) }), colour)}`);
}

/**
 * --fail-on-regression: exit 1 when a ratio is significantly slower (its
 * adjusted interval excludes 1) by more than `limit`, with one line per case
 * on stderr; else 0. `flagged`: the case ids found. `unjudged`: lines for
 * cases the gate could not judge (they failed), said first; with any, the
 * gate fails and never says that no case is slower. A ratio with a case
 * without work has no verdict: it is not judged, and a note counts them.
 */
export function regressionGate(view: View, limit: number | undefined, unjudged: readonly string[] = []): { exit: number; flagged: string[] } {
  // Claims have their own exit codes (commands/claims.ts).
  if (limit === undefined || view.kind === 'claims') return { exit: 0, flagged: [] };
  const pct = formatThreshold(limit);
  const found = regressionsOf(view, limit);
  const words = verdictWords('run' in view ? view.run.cases[0]?.metric : undefined);
  for (const line of unjudged) process.stderr.write(pc.red(`${line}\n`));
  const workless = view.kind === 'comparison' ? comparisonRatiosWithoutWork(view) : view.kind === 'bench' ? benchRatiosWithoutWork(view) : 0;
  if (workless) process.stderr.write(pc.yellow(`note: ${counted(workless, 'ratio')} with a case without work (∅) ` +
    `not judged: its calls may be empty (--strict makes that an error)\n`));
  if (!found.length && unjudged.length) return { exit: 1, flagged: [] };
  // Nothing compared is nothing passed: a gate that judged no ratio never says that no case is slower.
  if (!found.length && judgedRatios(view) === 0) {
    process.stderr.write(pc.red('✗ nothing was compared: no case has a ratio the gate can judge (a 0 ns median, no work, ' +
      'or nothing to compare it with); --fail-on-regression passes only what it compared\n'));
    return { exit: 1, flagged: [] };
  }
  if (!found.length) {
    const none = words.quantity === 'time' ? `no case is significantly ${words.worse} by more than ${pct}` : `no case executes significantly ${words.worse} ` +
      `${words.quantity} than its baseline, by more than ${pct}`;
    process.stderr.write(pc.green(`✓ ${none}\n`));
    return { exit: 0, flagged: [] };
  }
  for (const { label, slower, baseline, comparison: c } of found) {
    process.stderr.write(
      pc.red(`✗ regression: "${printable(label)}" ${printable(slower)} ${worseThan(words, baseline, formatPercent(c.ratio - 1))} ` +
        `(ratio ${formatRatio(c.ratio)}, ${+(c.confidence * 100).toFixed(2)}% interval ` +
        `${formatRatio(c.ci[0])}–${formatRatio(c.ci[1])}, q ${c.qValue.toPrecision(2)}), beyond --fail-on-regression ${pct}\n`),
    );
  }
  return { exit: 1, flagged: [...new Set(found.map((f) => f.caseId))] };
}
