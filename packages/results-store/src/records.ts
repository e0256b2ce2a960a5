/**
 * A loaded run as the store's rows, and back: its record compact and
 * compressed (the figures recomputed from its rounds are part of it), its
 * notes, its arms and its headline figures.
 */
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { metricOf, type RunRecord } from '@rtbench/core/schema';
import { machineText, type SavedRun } from '@rtbench/verdicts';

type Cell = string | number | null;

export interface StoredRun {
  /** The run's row: digest, run id, machine, suite, start, commit, notes, record (the order of SQL.insertRun). */
  run: [string, string, string, string, string, string | null, string, Buffer];
  /** Rows of arms and figures after their digest (SQL.insertArm, SQL.insertFigure). */
  arms: Cell[][];
  figures: Cell[][];
}

export function storedRun({ run, notes }: SavedRun): StoredRun {
  const json = JSON.stringify(run);
  const digest = createHash('sha256').update(json).digest('hex');
  return {
    run: [digest, run.id, machineText(run.host), run.suite, run.startedAt, run.git?.commit ?? null, JSON.stringify(notes ?? []), gzipSync(json)],
    arms: run.variants.map((v) => [digest, v.id, v.runtime, v.version ?? null, v.engine ?? null, v.engineVersion ?? null, v.binarySha256 ?? null]),
    figures: run.results.map((r) => [digest, r.caseId, r.variantId, metricOf(run, r.caseId).unit, r.stats?.median ?? null, r.stats?.ci?.[0] ?? null, r.stats?.ci?.[1] ?? null]),
  };
}

/** The run a stored row holds, as the loader returned it for `file`. */
export function savedRunOf(file: string, notes: string, record: Uint8Array): SavedRun {
  const said = JSON.parse(notes) as string[];
  return { run: JSON.parse(gunzipSync(record).toString('utf8')) as RunRecord, file, ...(said.length ? { notes: said } : {}) };
}
