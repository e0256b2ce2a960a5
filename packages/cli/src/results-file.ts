/** Saving and reading runs. Writes are atomic: a crash never leaves half a file. */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { UsageError } from './errors.ts';
import { resultsDir } from './paths.ts';

export function defaultResultsPath(run: Pick<RunRecord, 'startedAt' | 'suite' | 'mode'>): string {
  const stamp = run.startedAt.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z').replace('T', '-');
  return join(resultsDir, `${stamp}-${run.suite}${run.mode === 'compare' ? '-compare' : ''}.json`);
}

export function writeRunAtomically(path: string, run: RunRecord): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(run, null, 1)}\n`);
  renameSync(tmp, path);
}

/** Reads a JSON file; a missing, empty or corrupt file is a UsageError with a plain message. */
export function readJsonFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const why = text.trim() === '' ? 'the file is empty' : (error as Error).message;
    throw new UsageError(`${path} is not valid JSON (truncated or corrupt?): ${why}`);
  }
}

/** Validates a parsed run file; a bad one is a UsageError with a plain message. */
export function validateRun(json: unknown, path: string): RunRecord {
  try {
    return parseRun(json, path);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** Reads and validates a saved run. */
export function readRun(path: string): RunRecord {
  return validateRun(readJsonFile(path), path);
}
