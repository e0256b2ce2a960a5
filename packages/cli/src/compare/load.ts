/**
 * Reading saved runs for `rtbench compare` and `report`. Only a file of this
 * schema version is read, strictly (validateRun); any other version is
 * refused in one line naming both (version 1 is the first there is). Every failure is a
 * UsageError: one message, no stack trace.
 */
import { RUN_SCHEMA, RUN_SCHEMA_VERSION, type RunRecord } from '@rtbench/core/schema';
import { computeStats } from '@rtbench/run';
import { UsageError } from '../errors.ts';
import { readJsonFile, validateRun } from '@rtbench/run';
import type { SavedRun } from '@rtbench/report';

export function loadSavedRun(path: string): SavedRun {
  const json = readJsonFile(path);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new UsageError(`${path} is not an rtbench run (a JSON ${Array.isArray(json) ? 'array' : typeof json})`);
  const { schema, schemaVersion } = json as { schema?: unknown; schemaVersion?: unknown };
  if (schema !== RUN_SCHEMA) throw new UsageError(`${path} is not an rtbench run (its "schema" is ${JSON.stringify(schema) ?? 'missing'}, expected "${RUN_SCHEMA}")`);
  if (schemaVersion === RUN_SCHEMA_VERSION) {
    const run = validateRun(json, path);
    const contradicted = statisticsFromSamples(run);
    return { run, file: path, ...(contradicted ? { note: contradicted } : {}) };
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
