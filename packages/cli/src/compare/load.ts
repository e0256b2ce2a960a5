/**
 * Reading saved runs for `rtbench compare`. A file of this schema version is
 * read strictly (readRun). A file of another version is compared when it
 * still carries every field this version needs, with a note saying so; if
 * not, the error is one line naming both versions. Every failure is a
 * UsageError: one message, no stack trace.
 */
import { RUN_SCHEMA, RUN_SCHEMA_VERSION, runSchema, type RunRecord } from '@rtbench/core/schema';
import { UsageError } from '../errors.ts';
import { assertConsistent, readJsonFile, validateRun } from '../results-file.ts';
import type { SavedRun } from '@rtbench/report';

export function loadSavedRun(path: string): SavedRun {
  const json = readJsonFile(path);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new UsageError(`${path} is not an rtbench run (a JSON ${Array.isArray(json) ? 'array' : typeof json})`);
  const { schema, schemaVersion } = json as { schema?: unknown; schemaVersion?: unknown };
  if (schema !== RUN_SCHEMA) throw new UsageError(`${path} is not an rtbench run (its "schema" is ${JSON.stringify(schema) ?? 'missing'}, expected "${RUN_SCHEMA}")`);
  if (schemaVersion === RUN_SCHEMA_VERSION) return { run: validateRun(json, path), file: path };

  const lenient = runSchema.omit({ schemaVersion: true }).safeParse(json);
  if (!lenient.success) {
    throw new UsageError(`${path} has schema version ${JSON.stringify(schemaVersion)}; this rtbench reads version ${RUN_SCHEMA_VERSION}, and the file lacks fields it needs`);
  }
  const run: RunRecord = { ...lenient.data, schemaVersion: RUN_SCHEMA_VERSION };
  assertConsistent(run, path);
  return { run, file: path, note: `${path} has schema version ${JSON.stringify(schemaVersion)} (this rtbench reads ${RUN_SCHEMA_VERSION}); compared the fields both versions share` };
}
