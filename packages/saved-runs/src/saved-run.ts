/**
 * Reading saved runs back (`rtbench compare`, `report`, `history`, `merge`):
 * the files a path names, the newest one, and a run itself. Only a file of
 * this schema version is read, strictly (validateRun); any other version is
 * refused in one line naming both (version 1 is the first there is). Every
 * failure is a UsageError: one message, no stack trace.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_SCHEMA, RUN_SCHEMA_VERSION, type RunRecord } from '@rtbench/core/schema';
import { UsageError } from '@rtbench/core/usage-error';
import { computeStats } from './record.ts';
import { MEASURER_RECORDS } from '@rtbench/measurer-records';
import { readJsonFile, validateRun } from './results-file.ts';
import { refuseRepeatedInput } from './output-place.ts';
import { recheckClaims, type SavedRun } from '@rtbench/verdicts';

export function loadSavedRun(path: string): SavedRun {
  const json = readJsonFile(path);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new UsageError(`${path} is not an rtbench run (a JSON ${Array.isArray(json) ? 'array' : typeof json})`);
  const { schema, schemaVersion } = json as { schema?: unknown; schemaVersion?: unknown };
  if (schema !== RUN_SCHEMA) throw new UsageError(`${path} is not an rtbench run (its "schema" is ${JSON.stringify(schema) ?? 'missing'}, expected "${RUN_SCHEMA}")`);
  if (schemaVersion === RUN_SCHEMA_VERSION) {
    const run = validateRun(json, path);
    const notes = [statisticsFromSamples(run), claimsFromSamples(run), ...MEASURER_RECORDS.doubts(run)].filter((n): n is string => n !== undefined);
    return { run, file: path, ...(notes.length ? { notes } : {}) };
  }
  // A newer version's fields may mean something else: it is refused, never read as this one (nor relabelled by --format json).
  if (typeof schemaVersion === 'number' && Number.isInteger(schemaVersion) && schemaVersion > RUN_SCHEMA_VERSION) {
    throw new UsageError(`${path} has schema version ${schemaVersion}, from a newer rtbench; this one reads version ${RUN_SCHEMA_VERSION}`);
  }
  throw new UsageError(`${path} has no valid schema version (${JSON.stringify(schemaVersion) ?? 'missing'}); this rtbench reads version ${RUN_SCHEMA_VERSION}`);
}

/** How far a recomputed median may lie from the stored one and still be the same figure (JSON's round trip keeps 17 digits). */
const SAME_FIGURE = 1e-9;

/**
 * Computes a run's statistics from its samples, which are what every view
 * reads (a run cut off hard was saved before its statistics). A file whose
 * samples no longer give the statistics stored with them was edited: the
 * samples stand (the user may have meant it), and the cells are named.
 */
function statisticsFromSamples(run: RunRecord): string | undefined {
  const stored = new Map(run.results.map((r) => [r, r.stats?.median]));
  computeStats(run);
  const cells = run.results.filter((r) => {
    const before = stored.get(r);
    const now = r.stats?.median;
    return before !== undefined && now !== undefined && Math.abs(now - before) > SAME_FIGURE * Math.max(Math.abs(before), Math.abs(now));
  });
  if (!cells.length) return undefined;
  const named = cells.slice(0, 6).map((r) => `"${r.caseId}" on ${r.variantId}`);
  const more = cells.length > named.length ? ` and ${cells.length - named.length} more` : '';
  return `the samples of ${named.join(', ')}${more} do not give the statistics stored with them (the file was edited after it was saved?): the figures shown are the samples'`;
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

/** The .json files a path names: the file itself, or those directly inside a directory (sorted). */
export function runFilesIn(path: string): string[] {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw new UsageError(`${path}: no such file or directory`);
  }
  if (!stat.isDirectory()) return [path];
  return readdirSync(path)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => join(path, f));
}

/**
 * The newest run saved in `dir` (results/): by the time the file was last
 * written (a run is saved after every round), not by name, so a file named by
 * hand or kept from elsewhere does not shadow the run just made.
 */
export function latestRun(dir: string): string {
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

/**
 * The runs a command compares, each read once: one file named twice, or two
 * files that claim one run id (a copy of a run, or an edited copy, which
 * would be compared with the measurement it repeats), are a UsageError.
 */
export function loadDistinctRuns(files: readonly string[], what: string): SavedRun[] {
  refuseRepeatedInput(files, what);
  const saved = files.map(loadSavedRun);
  saved.forEach(({ run, file }, i) => {
    const earlier = saved.slice(0, i).find((other) => other.run.id === run.id);
    if (earlier) throw new UsageError(`${what}: ${file} and ${earlier.file} hold one run (id ${JSON.stringify(run.id)}); name two different runs`);
  });
  return saved;
}
