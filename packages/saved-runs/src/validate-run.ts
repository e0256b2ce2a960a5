/**
 * A parsed run file checked as a run: its shape by the run schema, its
 * measurer's block and rounds by that measurer's record, and what no schema
 * says (ids unique, results naming cases and variants that exist, options
 * in range); an older run's words and display names filled in.
 */
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { UsageError } from '@rtbench/core/usage-error';
import { MEASURER_RECORDS, UnknownMeasurer, type RecordRegistry } from '@rtbench/measurer-records';
import { displayNamesOf } from '@rtbench/runtime-registry/names';

/**
 * What the schema's shapes cannot say about a run, but every reader
 * (report, compare) relies on: ids are unique, results name cases and
 * variants that exist, every round has samples and its own round number,
 * the options are in range. The first few problems, or an empty list.
 */
function runProblems(run: RunRecord): string[] {
  const problems: string[] = [];
  const duplicates = (ids: string[]): string[] => [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
  const variantIds = new Set(run.variants.map((v) => v.id));
  const caseIds = new Set(run.cases.map((c) => c.id));
  for (const id of duplicates(run.variants.map((v) => v.id))) problems.push(`variant "${id}" is listed twice`);
  for (const id of duplicates(run.cases.map((c) => c.id))) problems.push(`case "${id}" is listed twice`);
  const keys = run.results.map((r) => `${r.caseId}" on "${r.variantId}`);
  for (const key of duplicates(keys)) problems.push(`the results hold "${key}" twice`);
  // A run holds a result for every case on every variant from its start (record.ts addResults), failed ones
  // included: one taken out would leave a variant's figures unshown as "not measured", its regression unseen.
  const held = new Set(keys);
  const missing = run.cases.flatMap((c) => run.variants.map((v) => `${c.id}" on "${v.id}`)).filter((key) => !held.has(key));
  if (missing.length) problems.push(`it holds no result for "${missing[0]}"${missing.length > 1 ? ` and ${missing.length - 1} more case × variant` : ''}`);
  const { rounds, timeMs, warmupMs, timeoutMs, seed } = run.options;
  if (!Number.isInteger(rounds) || rounds < 1) problems.push(`options.rounds is ${rounds}, not a whole number ≥ 1`);
  for (const [name, value] of Object.entries({ timeMs, warmupMs, timeoutMs, seed })) {
    if (!Number.isFinite(value) || value < 0) problems.push(`options.${name} is ${value}`);
  }
  for (const r of run.results) {
    const where = `the result for "${r.caseId}" on "${r.variantId}"`;
    if (!caseIds.has(r.caseId)) problems.push(`${where} names a case the run does not list`);
    if (!variantIds.has(r.variantId)) problems.push(`${where} names a variant the run does not list`);
    for (const round of r.rounds) {
      if (round.samples.length === 0) problems.push(`${where} has a round (${round.round}) without samples`);
    }
    for (const n of duplicates(r.rounds.map((x) => String(x.round)))) problems.push(`${where} has round ${n} twice`);
    // Figures are read from rounds: statistics kept without them are no measurement.
    if (!r.rounds.length && (r.stats || r.memory)) problems.push(`${where} holds ${r.stats ? 'statistics' : 'a memory summary'} but no rounds to read them from`);
  }
  if (run.results.length && !run.results.some((r) => r.rounds.length || r.failures.length) && run.status !== 'interrupted') problems.push('it holds no rounds, and no failure saying why');
  for (const m of run.digestMismatches) {
    if (!caseIds.has(m.caseId)) problems.push(`a digest mismatch names case "${m.caseId}", which the run does not list`);
    for (const v of Object.keys(m.digests)) if (!variantIds.has(v)) problems.push(`a digest mismatch names variant "${v}", which the run does not list`);
  }
  return problems.slice(0, 3);
}

/** Validates a parsed run file; a bad one is a UsageError with a plain message. */
export function validateRun(json: unknown, path: string, records: RecordRegistry = MEASURER_RECORDS): RunRecord {
  let run: RunRecord;
  try {
    run = parseRun(json, path);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  run = withMeasurerBlock(run, json, path, records);
  assertConsistent(run, path);
  return withMeasurerWords(withDisplayNames(run), path, records);
}

/**
 * An older run's description of how it was measured, by the measurer it
 * names, where the run does not record it itself. A run that records its
 * words and its verdict's parameters needs no measurer, known or not; an
 * older one needs the one it names (its verdict's parameters are read from
 * it when a view is made), so a name this rtbench lacks is refused here.
 */
function withMeasurerWords(run: RunRecord, path: string, records: RecordRegistry): RunRecord {
  if (run.options.measuredBy && run.options.verdict) return run;
  try {
    records.recorded(run.options.measurer);
  } catch (error) {
    if (error instanceof UnknownMeasurer) throw new UsageError(`${path} was ${error.message}`);
    throw error;
  }
  return run.options.measuredBy ? run : { ...run, options: { ...run.options, measuredBy: records.measuredBy(run.options) } };
}

/** The run's measurer block and its rounds' own blocks, as its measurer validates them; a run saved before the block has its fields moved into it. */
function withMeasurerBlock(run: RunRecord, json: unknown, path: string, records: RecordRegistry): RunRecord {
  const raw = (json as { options?: Record<string, unknown> }).options ?? {};
  try {
    return { ...run, options: records.measurerBlock(run.options, raw), results: records.roundBlocks(run) };
  } catch (error) {
    // A kind this rtbench lacks is refused only where its words are needed (withMeasurerWords); its fields stay unread.
    if (error instanceof UnknownMeasurer) return run;
    throw new UsageError(`${path} is not a valid rtbench run: ${(error as Error).message}`);
  }
}

/** An older run's variants named by their plug-ins, where the run does not record the names itself. */
function withDisplayNames(run: RunRecord): RunRecord {
  if (run.variants.every((v) => v.displayNames)) return run;
  return {
    ...run,
    variants: run.variants.map((v) => {
      const names = v.displayNames ?? displayNamesOf(v.runtime, v.engine);
      return names ? { ...v, displayNames: names } : v;
    }),
  };
}

/** A UsageError naming what is wrong, if `runProblems` finds anything. */
function assertConsistent(run: RunRecord, path: string): void {
  const problems = runProblems(run);
  if (problems.length) throw new UsageError(`${path} is not a consistent rtbench run: ${problems.join('; ')}`);
}
