/**
 * `rtbench merge <shard.json>… --out <run.json>`: the shard runs of one suite
 * (each made with --shard i/n on its own machine) saved as one run, then shown
 * as any run is (a table, or verdicts for a --compare run).
 */
import { viewOfRun } from '@rtbench/report';
import { stderrColours as pc } from '../colours.ts';
import { loadSavedRun } from '../compare/load.ts';
import { emit, outputReporter, regressionGate, type OutputFlags } from '../emit.ts';
import { UsageError } from '../errors.ts';
import { assertWritableOutput, writeRunAtomically } from '../results-file.ts';
import { mergeShards } from '../shards/merge.ts';
import { failLimit, ratioOptions, type VerdictFlags } from './bench.ts';

export interface MergeFlags extends OutputFlags, VerdictFlags {
  out?: string;
}

export function mergeCommand(files: readonly string[], flags: MergeFlags): number {
  if (flags.out === undefined) throw new UsageError('rtbench merge: name the merged run with --out <file>');
  const reporter = outputReporter(flags);
  assertWritableOutput(flags.out);
  const merged = mergeShards(files.map((file) => ({ run: loadSavedRun(file).run, file })));
  writeRunAtomically(flags.out, merged);
  const view = viewOfRun(merged, { ...ratioOptions(flags, [merged]), file: flags.out });
  emit(view, reporter, flags);
  process.stderr.write(pc.dim(`merged ${files.length} shards into ${flags.out}\n`));
  return merged.status === 'complete' ? regressionGate(view, failLimit(flags)) : 1;
}
