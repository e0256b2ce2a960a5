/** `rtbench report [run.json]`: load -> view -> emit, in any --format. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { viewOfRun } from '@rtbench/report';
import { loadSavedRun } from '../compare/load.ts';
import { stderrColours as pc } from '../emit/colours.ts';
import { loadProfileManifest } from '@rtbench/run';
import { emit, outputReporter, regressionGate, type OutputFlags } from '../emit.ts';
import { UsageError } from '../errors.ts';
import { resultsDir } from '../paths.ts';
import { failLimit, ratioOptions, type VerdictFlags } from './bench.ts';
import { claimsReportView } from '../claims/saved.ts';

/**
 * The newest run saved under results/: by the time the file was last
 * written (a run is saved after every round), not by name, so a file named by
 * hand or kept from elsewhere does not shadow the run just made.
 */
export function latestRun(dir = resultsDir): string {
  let files: { path: string; mtimeMs: number }[] = [];
  try {
    files = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => ({ path: join(dir, f), mtimeMs: statSync(join(dir, f)).mtimeMs }));
  } catch {
    /* no results yet */
  }
  files.sort((a, b) => b.mtimeMs - a.mtimeMs || b.path.localeCompare(a.path));
  const newest = files[0];
  if (!newest) throw new UsageError(`no saved runs in ${dir}; run \`pnpm bench <suite>\` first or name a file`);
  return newest.path;
}

export function reportCommand(file: string | undefined, flags: OutputFlags & VerdictFlags): number {
  const reporter = outputReporter(flags);
  // A folder made by `rtbench claims`, or one of its runs: the claims and their outcomes.
  const claims = claimsReportView(file);
  if (claims) {
    emit(claims, reporter, flags);
    return 0;
  }
  // Its statistics computed from its samples (load.ts).
  const saved = loadSavedRun(file ?? latestRun());
  // A comparison run is shown as verdicts, any other as the bench table.
  const view = viewOfRun(saved.run, { ...ratioOptions(flags, [saved.run]), file: saved.file, ...(saved.note ? { notes: [saved.note] } : {}) });
  // The page draws the run's CPU profiles (--profile) when they were saved beside it; other formats do not show them.
  const profiles = reporter.drawsProfiles ? loadProfileManifest(saved.file, saved.run.id, (line) => process.stderr.write(pc.yellow(`${line}\n`))) : undefined;
  emit(profiles ? { ...view, profiles } : view, reporter, flags);
  return regressionGate(view, failLimit(flags)).exit;
}
