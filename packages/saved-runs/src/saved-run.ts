/**
 * Reading saved runs back (`rtbench compare`, `report`, `history`, `merge`):
 * the files a path names, the newest one, and a run itself. Only a file of
 * this schema version is read, strictly (validateRun); any other version is
 * refused in one line naming both (version 1 is the first there is). A
 * run's digests, same-work judgement, statistics and claims are taken again
 * from its rounds, never from what it stored beside them. Every failure is a
 * UsageError: one message, no stack trace.
 */
import { readdirSync, statSync } from 'node:fs';
import { RUN_SCHEMA, RUN_SCHEMA_VERSION, type RunRecord } from '@rtbench/core/schema';
import { UsageError } from '@rtbench/core/usage-error';
import { computeStats, sameWorkOf, sha256 } from './record.ts';
import { digest } from '@rtbench/core/digest';
import { maskedDigestText } from '@rtbench/core/same-work';
import { MEASURER_RECORDS, type RecordRegistry } from '@rtbench/measurer-records';
import { requestsOf } from '@rtbench/measurer-records/readers';
import { readJsonFile } from './results-file.ts';
import { validateRun } from './validate-run.ts';
import { childOf, isRunFileName } from './run-files.ts';
import { refuseRepeatedInput } from './output-place.ts';
import { historyRead, recheckClaims, type HistoryRead, type SavedRun } from '@rtbench/verdicts';

/** `records`: the measurers' records the run is validated and worded through (rtbench's, or a registry of a test's own). */
export function loadSavedRun(path: string, records: RecordRegistry = MEASURER_RECORDS): SavedRun {
  const json = readJsonFile(path);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new UsageError(`${path} is not an rtbench run (a JSON ${Array.isArray(json) ? 'array' : typeof json})`);
  const { schema, schemaVersion } = json as { schema?: unknown; schemaVersion?: unknown };
  if (schema !== RUN_SCHEMA) throw new UsageError(`${path} is not an rtbench run (its "schema" is ${JSON.stringify(schema) ?? 'missing'}, expected "${RUN_SCHEMA}")`);
  if (schemaVersion === RUN_SCHEMA_VERSION) {
    const run = validateRun(json, path, records);
    // The digests first: the work each case did is judged on them, and the claims after the statistics.
    const notes = fromRounds(path, () => [digestsFromAnswers(run), sameWorkFromRounds(run), ...statisticsFromSamples(run), claimsFromSamples(run), ...records.doubts(run)]).filter((n): n is string => n !== undefined);
    return { run, file: path, ...(notes.length ? { notes } : {}) };
  }
  // A newer version's fields may mean something else: it is refused, never read as this one (nor relabelled by --format json).
  if (typeof schemaVersion === 'number' && Number.isInteger(schemaVersion) && schemaVersion > RUN_SCHEMA_VERSION) {
    throw new UsageError(`${path} has schema version ${schemaVersion}, from a newer rtbench; this one reads version ${RUN_SCHEMA_VERSION}`);
  }
  throw new UsageError(`${path} has no valid schema version (${JSON.stringify(schemaVersion) ?? 'missing'}); this rtbench reads version ${RUN_SCHEMA_VERSION}`);
}

/** What `read` takes from a run's rounds; rounds the schema let through but no figure can be read from are a UsageError naming the file. */
function fromRounds<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${path}: its rounds give no figures (${(error as Error).message})`);
  }
}

/** Up to this many cells are named in a note; the rest counted. */
const NAMED_CELLS = 6;

/** `"a" on node, "b" on deno and 3 more`. */
function cellsText(cells: readonly { caseId: string; variantId?: string }[]): string {
  const named = cells.slice(0, NAMED_CELLS).map((r) => `"${r.caseId}"${r.variantId === undefined ? '' : ` on ${r.variantId}`}`);
  return `${named.join(', ')}${cells.length > named.length ? ` and ${cells.length - named.length} more` : ''}`;
}

/**
 * A request round that saved its masked answers digested them (host-timed
 * request/answers.ts): its digest is given again by its answers. One that
 * is not was edited apart from them; the answers stand, and the cells are
 * named. A run saved before answers were learned across rounds digested a
 * count with them, and is read as saved.
 */
function digestsFromAnswers(run: RunRecord): string | undefined {
  const cells: { caseId: string; variantId: string }[] = [];
  for (const result of run.results) {
    let edited = false;
    for (const round of result.rounds) {
      const requests = requestsOf(round);
      // Answers learned across rounds (they say from how many) were saved since a round's digest is of them alone.
      const answers = requests?.answers;
      if (answers?.[0]?.rounds === undefined) continue;
      const again = digest(maskedDigestText(answers, sha256));
      if (again.hash === round.digest.hash) continue;
      round.digest = again;
      edited = true;
    }
    if (edited) cells.push(result);
  }
  return cells.length ? `the digests of ${cellsText(cells)} are not what their saved answers give (the file was edited after it was saved?): the answers' are used` : undefined;
}

/**
 * Judges again from the rounds whether each case's variants did the same
 * work (saved-runs record.ts sameWorkOf): every view shows that, never the
 * stored list, and a run whose rounds hold a difference it does not list is
 * failed. A stored list the rounds do not give names its cases.
 */
function sameWorkFromRounds(run: RunRecord): string | undefined {
  const work = sameWorkOf(run);
  const listed = (mismatches: RunRecord['digestMismatches'], caseId: string): boolean => mismatches.some((m) => m.caseId === caseId);
  const differ = run.cases.filter((c) => listed(run.digestMismatches, c.id) !== listed(work.digestMismatches, c.id));
  delete run.digestsRounded;
  delete run.sameWorkMasked;
  Object.assign(run, work);
  if (work.digestMismatches.length && run.status === 'complete') run.status = 'failed';
  if (!differ.length) return undefined;
  return `the saved list of cases with different work is not what the rounds of ${cellsText(differ.map((c) => ({ caseId: c.id })))} say (the file was edited after it was saved?): the rounds' judgement is shown`;
}

/** How far a recomputed median may lie from the stored one and still be the same figure (JSON's round trip keeps 17 digits). */
const SAME_FIGURE = 1e-9;

/**
 * Computes a run's statistics from its samples, which are what every view
 * reads (a run cut off hard was saved before its statistics). A file whose
 * samples no longer give the statistics stored with them was edited: the
 * samples stand (the user may have meant it), and the cells are named. A
 * result holding fewer rounds than its stored statistics or its adaptive
 * record counted had rounds taken out: it is read from the rounds it holds
 * (each is a measurement, and refusing the file would hide every other
 * cell of it), and named with how many it holds of how many, in one line of
 * its own, so that a reader comparing it knows its figure rests on fewer.
 */
function statisticsFromSamples(run: RunRecord): string[] {
  const stored = new Map(run.results.map((r) => [r, { median: r.stats?.median, rounds: r.stats?.rounds ?? 0 }]));
  computeStats(run);
  const fewer = run.results.flatMap((r) => {
    // Its statistics count the rounds with samples; its adaptive record, every round it held.
    const counts = [
      { held: r.stats?.rounds ?? 0, claimed: stored.get(r)!.rounds },
      // A round a late crash took out leaves its result failed: only a whole result's record must match.
      { held: r.rounds.length, claimed: r.status === 'ok' ? (r.precision?.rounds ?? 0) : 0 },
    ].filter((c) => c.held < c.claimed);
    return counts.length ? [{ result: r, ...counts.reduce((a, b) => (b.claimed - b.held > a.claimed - a.held ? b : a)) }] : [];
  });
  const short = new Set(fewer.map((f) => f.result));
  const cells = run.results.filter((r) => {
    const before = stored.get(r)!.median;
    const now = r.stats?.median;
    return !short.has(r) && before !== undefined && now !== undefined && Math.abs(now - before) > SAME_FIGURE * Math.max(Math.abs(before), Math.abs(now));
  });
  const notes: string[] = [];
  if (fewer.length) {
    const named = fewer.slice(0, NAMED_CELLS).map(({ result, held, claimed }) => `"${result.caseId}" on ${result.variantId} holds ${held} of its ${claimed} rounds`);
    const more = fewer.length > named.length ? ` and ${fewer.length - named.length} more` : '';
    notes.push(`${named.join(', ')}${more} (rounds taken out after the run was saved?): the figures shown are those of the rounds held`);
  }
  if (cells.length) notes.push(`the samples of ${cellsText(cells)} do not give the statistics stored with them (the file was edited after it was saved?): the figures shown are the samples'`);
  return notes;
}

/**
 * Decides a claims run's claims again from its samples (after its statistics):
 * every view and the findings page show those words, never the stored ones;
 * a stored word the samples contradict names the claim.
 */
function claimsFromSamples(run: RunRecord): string | undefined {
  const again = recheckClaims(run);
  if (!again) return undefined;
  run.claims = again.block;
  if (!again.reworded.length) return undefined;
  const named = again.reworded.slice(0, 4).map(({ outcome, stored }) => `"${outcome.says}" on ${outcome.subject.variantId} (saved ${stored}, the samples say ${outcome.word})`);
  const more = again.reworded.length > named.length ? ` and ${again.reworded.length - named.length} more` : '';
  return `the claims ${named.join(', ')}${more} are not what the samples stored with them decide (the file was edited after it was saved?): the words shown are the samples'`;
}

/**
 * The newest run saved in `dir` (results/): by the time the file was last
 * written (a run is saved after every round), not by name, so a file named by
 * hand or kept from elsewhere does not shadow the run just made.
 */
export function latestRun(dir: string): string {
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter(isRunFileName);
  } catch {
    /* no results yet */
  }
  // A link to nothing or a folder named like a run is no run: it must not hide the runs beside it.
  const inDir = childOf(dir);
  const files = names.flatMap((f) => {
    const path = inDir(f);
    const stat = statSync(path, { throwIfNoEntry: false });
    return stat?.isFile() ? [{ path, mtimeMs: stat.mtimeMs }] : [];
  });
  files.sort((a, b) => b.mtimeMs - a.mtimeMs || b.path.localeCompare(a.path));
  const newest = files[0];
  if (!newest) throw new UsageError(`no saved runs in ${dir}; run \`pnpm bench <suite>\` first or name a file`);
  return newest.path;
}

/**
 * The runs a command compares, each read once: one file named twice, or two
 * files that claim one run id (a copy of a run, or an edited copy, which
 * would be compared with the measurement it repeats), are a UsageError.
 */
export function loadDistinctRuns(files: readonly string[], what: string): SavedRun[] {
  refuseRepeatedInput(files, what);
  const saved = files.map((file) => loadSavedRun(file));
  saved.forEach(({ run, file }, i) => {
    const earlier = saved.slice(0, i).find((other) => other.run.id === run.id);
    if (earlier) throw new UsageError(`${what}: ${file} and ${earlier.file} hold one run (id ${JSON.stringify(run.id)}); name two different runs`);
  });
  return saved;
}

/** A run file as a history reads it, through the loader (the results store's reader answers from its rows instead). */
export const readForHistory = (file: string): HistoryRead => historyRead(loadSavedRun(file));
