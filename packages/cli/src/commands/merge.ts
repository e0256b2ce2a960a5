/**
 * `rtbench merge <shard.json>… --save <run.json>`: the shard runs of one suite
 * (each made with --shard i/n on its own machine) saved as one run, then shown
 * as any run is (a table, or verdicts for a --compare run).
 */
import { viewOfRun } from '@rtbench/report';
import { stderrColours as pc } from '../emit/colours.ts';
import { assertWritableFolder } from '@rtbench/campaign';
import { loadSavedRun, writeRunAtomically, assertWritableOutput, mergeShards } from '@rtbench/saved-runs';
import { emit, outputReporter, regressionGate, type OutputFlags } from '../emit.ts';
import { UsageError } from '../errors.ts';
import { failLimit, ratioOptions, type VerdictFlags } from '../verdict-flags.ts';
import { shownOptions } from '../shown-flags.ts';
import { info } from '../emit/info.ts';
import { failedRunLine } from '../emit/failed-run.ts';
import { join } from 'node:path';
import { drawMatrix, isMatrixFolder, MATRIX_FILES, mergeMatrices } from '@rtbench/releases';
import { emitMatrix, listingFormat, type ListingFlags } from '../listing.ts';
import { writeViewFile } from '../emit/campaign.ts';
import { command } from '../options/command.ts';
import { saveOption, VIEW_OPTIONS } from '../options/shared.ts';

interface MergeFlags extends OutputFlags, VerdictFlags {
  save?: string;
}

async function mergeCommand(files: readonly string[], flags: MergeFlags): Promise<number> {
  // Shard folders of a release matrix (rtbench releases --shard i/n) are joined as a matrix.
  if (files.length && files.every(isMatrixFolder)) return mergeMatrixCommand(files, flags);
  if (flags.save === undefined) throw new UsageError('rtbench merge: name the merged run with --save <file> (-o/--output writes the rendered --format)');
  const reporter = outputReporter(flags, files);
  assertWritableOutput(flags.save, '--save', files);
  const merged = mergeShards(files.map((file) => ({ run: loadSavedRun(file).run, file })));
  writeRunAtomically(flags.save, merged);
  const view = viewOfRun(merged, { ...ratioOptions(flags, [merged]), ...shownOptions(flags, merged), file: flags.save });
  emit(view, reporter, flags);
  info(flags, `merged ${files.length} shards into ${flags.save}`);
  if (merged.status === 'complete') return regressionGate(view, failLimit(flags)).exit;
  // Said even with --quiet: exit 1 never comes without its reason.
  process.stderr.write(`${pc.red('error:')} ${merged.status === 'failed' ? failedRunLine(merged) : 'a shard was interrupted: the merged run is incomplete'}\n`);
  return 1;
}

/** `rtbench merge <shard folder>… --save <folder>`: the shards of one matrix joined, then drawn as one (the false discovery rate over all of it). */
function mergeMatrixCommand(dirs: readonly string[], flags: ListingFlags & { save?: string }): number {
  listingFormat(flags);
  if (flags.save === undefined) throw new UsageError('rtbench merge: name the merged matrix\'s folder with --save <folder>');
  assertWritableFolder(flags.save, '--save');
  const merged = mergeMatrices(dirs, flags.save);
  const view = drawMatrix(flags.save, merged, merged.tracks);
  for (const kind of ['page', 'report'] as const) writeViewFile(join(flags.save, MATRIX_FILES[kind]), kind, view);
  emitMatrix(view, flags);
  return 0;
}

export const merge = command({
  name: 'merge',
  positionals: [{ name: 'shards', required: true, variadic: true, missing: 'name the shard runs (bench --shard i/n) to combine' }],
  summary: 'Combine shard runs (bench --shard i/n on several machines) into one run and show it',
  options: [saveOption('Where to save the merged run (required)'), ...VIEW_OPTIONS],
  run: (files, flags) => mergeCommand(files, flags),
});
