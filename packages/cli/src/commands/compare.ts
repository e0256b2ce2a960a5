/**
 * `rtbench compare <run.json> [<run.json>]`: load -> view -> emit. One saved
 * run with two or more variants gives paired verdicts; two saved runs give
 * unpaired ones. --fail-on-regression <percent> exits 1 when a case is
 * significantly slower by more than that.
 */
import { existsSync } from 'node:fs';
import { writeFileAtomically } from '@rtbench/host/files';
import { exactFilter } from '@rtbench/suite-loader/case-filter';
import { pairedComparisonView, unpairedComparisonView, ViewError, type ComparisonView } from '@rtbench/report';
import { COMPARE_USAGE } from '../compare/usage.ts';
import { assertWritableOutput, isRunFileName, loadDistinctRuns } from '@rtbench/saved-runs';
import { unjudgedLine } from '../compare/unjudged.ts';
import { unjudgedCases } from '@rtbench/verdicts';
import { emit, outputReporter, regressionGate, type OutputFlags } from '../emit.ts';
import { UsageError } from '../errors.ts';
import { failLimit, ratioOptions, thresholdFlag, type VerdictFlags } from '../verdict-flags.ts';
import { shownOptions } from '../shown-flags.ts';
import type { OptionSpec } from '../args/args.ts';
import { command } from '../options/command.ts';
import { GLOBAL_OPTIONS, OUTPUT_OPTIONS } from '../options/shared.ts';

export type CompareFlags = OutputFlags & VerdictFlags & { flagged?: string };

/** Whether a name that is no file starts with a runtime's spec (node@24): asked of the plug-ins only then, so that comparing files loads none. */
async function namesRuntime(name: string): Promise<boolean> {
  const { pluginForSpec } = await import('@rtbench/runtime-registry');
  return pluginForSpec(name.split(/\s/)[0]!) !== undefined;
}

export async function compareFilesCommand(files: string[], flags: CompareFlags): Promise<number> {
  const reporter = outputReporter(flags, files);
  // Checked before any file is read: a bad --threshold is a usage error; so is a --flagged file without the gate or that cannot be written.
  thresholdFlag(flags);
  shownOptions(flags);
  const limit = failLimit(flags);
  if (flags.flagged !== undefined && limit === undefined) throw new UsageError('--flagged names the cases --fail-on-regression finds: give both');
  if (flags.flagged !== undefined) assertWritableOutput(flags.flagged, '--flagged', files);
  if (files.length === 0 || files.length > 2) {
    throw new UsageError('rtbench compare takes one saved compare run (paired verdicts) or two saved runs (unpaired): rtbench compare <run.json> [<run.json>]');
  }
  for (const f of files) {
    if (!existsSync(f) && !isRunFileName(f) && (await namesRuntime(f))) throw new UsageError(`"${f}" looks like a variant, not a results ` +
      `file. To run a comparison: ${COMPARE_USAGE}`);
  }
  const saved = loadDistinctRuns(files, 'rtbench compare');
  const resolved = ratioOptions(flags, saved.map((x) => x.run));
  let view: ComparisonView;
  try {
    const [a, b] = saved;
    view = b ? unpairedComparisonView(a!, b, resolved) : pairedComparisonView(a!.run, {
      ...resolved,
      ...shownOptions(flags, a!.run),
      file: a!.file,
      ...(a!.notes ? { notes: a!.notes } : {}),
    });
  } catch (error) {
    if (error instanceof ViewError) throw new UsageError(error.message);
    throw error;
  }
  emit(view, reporter, flags);
  // A case the candidate failed has no verdict: the gate must not pass it as "not slower".
  const unjudged = limit === undefined ? [] : unjudgedCases(saved).map(unjudgedLine);
  const gate = regressionGate(view, limit, unjudged);
  if (flags.flagged !== undefined) writeFileAtomically(flags.flagged, gate.flagged.length ? `${exactFilter(gate.flagged)}
` : '');
  return gate.exit;
}

const COMPARE_OPTIONS = [
  ...OUTPUT_OPTIONS,
  {
    name: 'flagged',
    kind: 'value',
    value: 'file',
    help: 'With --fail-on-regression: write the regressed cases to this file as a --filter value, for a fresh ' +
      'rerun of those cases only that must confirm the regression before a gate fails (an empty file when none)',
    section: 'Output',
  },
  ...GLOBAL_OPTIONS,
] as const satisfies readonly OptionSpec[];

export const compare = command({
  name: 'compare',
  positionals: [
    { name: 'run', required: true, missing: 'name a saved run made with --compare (paired verdicts), or two saved runs (unpaired)' },
    { name: 'other' },
  ],
  summary: 'Verdicts from saved runs: one run made with --compare (paired), or two runs (unpaired)',
  options: COMPARE_OPTIONS,
  run: (files, flags) => compareFilesCommand([...files], flags),
});
