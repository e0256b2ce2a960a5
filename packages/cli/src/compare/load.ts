/**
 * Reading saved runs for `rtbench compare` and `report`. Only a file of this
 * schema version is read, strictly (validateRun); any other version is
 * refused in one line naming both (version 1 is the first there is). Every failure is a
 * UsageError: one message, no stack trace.
 */
import { RUN_SCHEMA, RUN_SCHEMA_VERSION } from '@rtbench/core/schema';
import { UsageError } from '../errors.ts';
import { readJsonFile, validateRun } from '@rtbench/run';
import type { SavedRun } from '@rtbench/report';

export function loadSavedRun(path: string): SavedRun {
  const json = readJsonFile(path);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new UsageError(`${path} is not an rtbench run (a JSON ${Array.isArray(json) ? 'array' : typeof json})`);
  const { schema, schemaVersion } = json as { schema?: unknown; schemaVersion?: unknown };
  if (schema !== RUN_SCHEMA) throw new UsageError(`${path} is not an rtbench run (its "schema" is ${JSON.stringify(schema) ?? 'missing'}, expected "${RUN_SCHEMA}")`);
  if (schemaVersion === RUN_SCHEMA_VERSION) return { run: validateRun(json, path), file: path };
  // A newer version's fields may mean something else: it is refused, never read as this one (nor relabelled by --format json).
  if (typeof schemaVersion === 'number' && Number.isInteger(schemaVersion) && schemaVersion > RUN_SCHEMA_VERSION) {
    throw new UsageError(`${path} has schema version ${schemaVersion}, from a newer rtbench; this one reads version ${RUN_SCHEMA_VERSION}`);
  }
  throw new UsageError(`${path} has no valid schema version (${JSON.stringify(schemaVersion) ?? 'missing'}); this rtbench reads version ${RUN_SCHEMA_VERSION}`);
}
