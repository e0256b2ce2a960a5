/** `rtbench report [run.json]`: load -> view -> emit, in any --format. */
import { viewOfRun } from '@rtbench/report';
import { loadProfileManifest } from '@rtbench/run/profile-manifest';
import { latestRun, loadSavedRun } from '@rtbench/saved-runs';
import { stderrColours as pc } from '../emit/colours.ts';
import { emit, outputReporter, regressionGate, type OutputFlags } from '../emit.ts';
import { UsageError } from '../errors.ts';
import { resultsDir } from '../paths.ts';
import { failLimit, ratioOptions, type VerdictFlags } from '../verdict-flags.ts';
import { shownOptions } from '../shown-flags.ts';
import { claimsReportView } from '@rtbench/claims/saved';
import { command } from '../options/command.ts';
import { VIEW_OPTIONS } from '../options/shared.ts';

export async function reportCommand(file: string | undefined, flags: OutputFlags & VerdictFlags): Promise<number> {
  const reporter = outputReporter(flags, file === undefined ? [] : [file]);
  // A folder made by `rtbench claims`, or one of its runs: the claims and their outcomes.
  const claims = claimsReportView(file);
  if (claims) {
    emit(claims, reporter, flags);
    return 0;
  }
  // Its statistics computed from its samples (@rtbench/saved-runs saved-run.ts).
  const saved = loadSavedRun(file ?? latestRun(resultsDir));
  // A comparison run is shown as verdicts, any other as the bench table.
  const view = viewOfRun(saved.run, {
    ...ratioOptions(flags, [saved.run]),
    ...shownOptions(flags, saved.run),
    file: saved.file,
    ...(saved.notes ? { notes: saved.notes } : {}),
  });
  // The page draws the run's CPU profiles (--profile) when they were saved beside it; other formats do not show them.
  const profiles = reporter.drawsProfiles ? loadProfileManifest(saved.file, saved.run.id, (line) => process.stderr.write(pc.yellow(`${line}\n`))) : undefined;
  emit(profiles ? { ...view, profiles } : view, reporter, flags);
  return regressionGate(view, failLimit(flags)).exit;
}

export const report = command({
  name: 'report',
  positionals: [{ name: 'run' }],
  summary: 'Render a saved run (default: the newest in results/)',
  options: VIEW_OPTIONS,
  run: ([file], flags) => reportCommand(file, flags),
});
