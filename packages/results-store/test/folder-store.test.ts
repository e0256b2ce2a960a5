/**
 * A folder's own store: a run read once, answered from the store while its
 * file is unchanged, read again when it changes; its arms and headline
 * figures in their tables; a deleted file's run forgotten; a store of another format rebuilt; a file the
 * loader refuses refused again; a stored run's facts without its results (its shape shared, a store of format 5
 * migrated to shapes); a folder whose store cannot be opened read
 * file by file. Synthetic runs; no process started.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { historyFiles, loadSavedRun, readForHistory, readHistoryRuns } from '@rtbench/saved-runs';
import { historyRead, type HistoryRead, type SavedRun } from '@rtbench/verdicts';
import { openHistoryReading, readStored, STORE_FILE } from '../src/index.ts';
import { openDatabase } from '../src/sqlite-store.ts';
import { STORE_FORMAT } from '../src/schema.ts';
import { dropShapes, expectFactsAsFiles } from './walked-folder.ts';
import { historyRuns } from '../../../test/history-synthetic.ts';
import { writeRun } from '../../../test/compare-synthetic.ts';

const cases = [
  { id: 'parse', ns: 1_000 },
  { id: 'stringify', ns: 8_000 },
];

function folderOfRuns(count: number): { dir: string; files: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'rtbench-store-'));
  const steps = Array.from({ length: count }, () => ({ factor: 1 }));
  const files = historyRuns(steps, { cases, rounds: 6, seed: 5, suite: 'synthetic' }).map((run, i) => writeRun(join(dir, `run-${i}.json`), run));
  return { dir, files };
}

/** The loader, counting the files it was asked for. */
function countingLoader(): { load: (file: string) => SavedRun; asked: string[] } {
  const asked: string[] = [];
  return { asked, load: (file) => (asked.push(file), loadSavedRun(file)) };
}

/** Every file of the folder read through its store, as history reads them. */
async function readFolder(dir: string, loader: (file: string) => SavedRun): Promise<{ runs: HistoryRead[]; lines: string[] }> {
  const files = historyFiles([dir]);
  const { load, lines } = await readStored([dir], files, loader);
  return { runs: files.map(load), lines };
}

describe("a folder's own store", () => {
  it('reads a file once: the same run from the store while the file is unchanged, read again once it changes', async () => {
    const { dir, files } = folderOfRuns(2);
    const first = countingLoader();
    const loaded = await readFolder(dir, first.load);
    expect(first.asked).toEqual(files);
    expect(loaded.lines).toEqual([]);

    const second = countingLoader();
    const stored = await readFolder(dir, second.load);
    expect(second.asked).toEqual([]);
    expect(stored.runs).toEqual(loaded.runs);

    const { atime, mtime } = statSync(files[0]!);
    utimesSync(files[0]!, atime, new Date(mtime.getTime() + 5_000));
    const third = countingLoader();
    await readFolder(dir, third.load);
    expect(third.asked).toEqual([files[0]]);
  });

  it("keeps each run's machine, arms and headline figures as rows, and gives back the run a history reads of its file", async () => {
    const { dir, files } = folderOfRuns(1);
    await readFolder(dir, loadSavedRun);
    const [fromStore] = (await readFolder(dir, () => expect.fail('a stored file is not read again'))).runs as [HistoryRead];
    const saved = loadSavedRun(files[0]!);
    expect(fromStore).toEqual(historyRead(saved));
    const { run } = saved;
    const db = openDatabase(join(dir, STORE_FILE));
    const figures = db.prepare('SELECT case_id, variant_id, unit, median, ci_low, ci_high FROM figures ORDER BY case_id').all();
    const arms = db.prepare('SELECT variant_id, runtime, version, engine_version FROM arms').all();
    const runs = db.prepare('SELECT run_id, suite, machine FROM runs').all();
    db.close();
    expect(figures).toHaveLength(2);
    expect(figures).toEqual(
      run.results
        .map((r) => ({ case_id: r.caseId, variant_id: r.variantId, unit: 'ns', median: r.stats!.median, ci_low: r.stats!.ci?.[0] ?? null, ci_high: r.stats!.ci?.[1] ?? null }))
        .sort((a, b) => a.case_id.localeCompare(b.case_id)),
    );
    expect(arms).toEqual(run.variants.map((v) => ({ variant_id: v.id, runtime: v.runtime, version: v.version ?? null, engine_version: v.engineVersion ?? null })));
    expect(runs).toEqual([{ run_id: run.id, suite: 'synthetic', machine: expect.stringContaining(run.host.cpuModel) }]);
  });

  it('gives back runs of request cases (answers, steady phases, requests/s) as a history reads their files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-store-saved-'));
    for (const name of ['20261126-111226Z-relay-request.json', '20261127-010336Z-next-page.json']) copyFileSync(join(import.meta.dirname, '../../../results', name), join(dir, name));
    await readFolder(dir, loadSavedRun);
    const { load } = await readStored([dir], historyFiles([dir]), () => expect.fail('a stored file is not read again'));
    const fromStore = readHistoryRuns([dir], load).inputs;
    const fromFiles = readHistoryRuns([dir], readForHistory).inputs;
    const results = fromFiles.flatMap((x) => x.record.results);
    // What these runs bring that synthetic ones do not: request answers in the arms' work, a metric other than time.
    expect(results.some((r) => r.arm?.work.answers?.length)).toBe(true);
    expect(fromFiles.some((x) => x.record.cases.some((c) => c.metric))).toBe(true);
    expect(fromStore).toEqual(fromFiles);
  });

  it('forgets the run of a file deleted from the folder at its next reading, and its rows with it', async () => {
    const { dir, files } = folderOfRuns(3);
    await readFolder(dir, loadSavedRun);
    rmSync(files[1]!);
    const { runs } = await readFolder(dir, () => expect.fail('the files left are answered from the store'));
    expect(runs.map((r) => r.record.id)).toEqual(['history-1', 'history-3']);
    const db = openDatabase(join(dir, STORE_FILE));
    const count = (table: string): unknown => db.prepare(`SELECT count(DISTINCT digest) FROM ${table}`).pluck().get();
    const left = ['files', 'runs', 'arms', 'figures'].map(count);
    db.close();
    expect(left).toEqual([2, 2, 2, 2]);
  });

  /** Runs of two sets of arms, the first's with commits (one dirty), the second's without: two shapes, each shared. */
  function runsOfShapes(): { dir: string; files: string[] } {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-store-'));
    const files = [
      ...historyRuns([{ factor: 1, commit: 'a'.repeat(40) }, { factor: 1.2, commit: 'b'.repeat(40), dirty: true }, { factor: 1.1, commit: 'c'.repeat(40) }], { cases, variants: ['node@22', 'node@24'], rounds: 6, seed: 7, suite: 'synthetic' }),
      ...historyRuns([{ factor: 1 }, { factor: 1 }], { cases, variants: ['node@24'], rounds: 6, seed: 9, suite: 'synthetic' }).map((run, i) => ({ ...run, id: `other-${i}` })),
    ].map((run, i) => writeRun(join(dir, `run-${i}.json`), run));
    return { dir, files };
  }

  it("answers a history's reading of a stored run as its file's run without its results", async () => {
    const { dir, files } = runsOfShapes();
    await readFolder(dir, loadSavedRun);
    await expectFactsAsFiles(dir, files);
    // Runs of one suite, machine and arms (with a commit or without) share a shape; their commits are their own.
    const db = openDatabase(join(dir, STORE_FILE));
    const shapes = db.prepare('SELECT count(*) FROM shapes').pluck().get();
    const gits = db.prepare('SELECT git FROM runs ORDER BY run_id').pluck().all();
    db.close();
    expect(shapes).toBe(2);
    expect(gits.filter((g) => g !== null).map((g) => JSON.parse(String(g)) as unknown)).toEqual([
      { commit: 'a'.repeat(40), dirty: false },
      { commit: 'b'.repeat(40), dirty: true },
      { commit: 'c'.repeat(40), dirty: false },
    ]);
  });

  it("a store of format 5 is migrated (each run's shape made from its rows) without reading a file again", async () => {
    const { dir, files } = runsOfShapes();
    await readFolder(dir, loadSavedRun);
    const db = openDatabase(join(dir, STORE_FILE));
    dropShapes(db);
    db.prepare("UPDATE rtbench_meta SET value = '5' WHERE key = 'format'").run();
    db.close();
    await expectFactsAsFiles(dir, files);
    const after = openDatabase(join(dir, STORE_FILE));
    const cells = ["SELECT value FROM rtbench_meta WHERE key = 'format'", 'SELECT count(*) FROM shapes', 'SELECT count(*) FROM runs WHERE shape IS NULL'].map((sql) => after.prepare(sql).pluck().get());
    after.close();
    expect(cells).toEqual([STORE_FORMAT, 2, 0]);
  });

  it('a store of another format is emptied and rebuilt from the files', async () => {
    const { dir, files } = folderOfRuns(1);
    await readFolder(dir, loadSavedRun);
    const db = openDatabase(join(dir, STORE_FILE));
    db.prepare("UPDATE rtbench_meta SET value = 'older' WHERE key = 'format'").run();
    db.close();
    const counting = countingLoader();
    await readFolder(dir, counting.load);
    expect(counting.asked).toEqual(files);
  });

  it('a file the loader refuses is not stored: it is refused again, in its words', async () => {
    const { dir } = folderOfRuns(0);
    writeFileSync(join(dir, 'not-a-run.json'), '[1, 2]\n');
    for (let i = 0; i < 2; i++) {
      const counting = countingLoader();
      const files = historyFiles([dir]);
      const { load } = await readStored([dir], files, counting.load);
      expect(() => load(files[0]!)).toThrow(/not an rtbench run \(a JSON array\)/);
      expect(counting.asked).toEqual(files);
    }
  });

  it('a folder whose store cannot be opened is read file by file, and says so in one line', async () => {
    const { dir, files } = folderOfRuns(1);
    mkdirSync(join(dir, STORE_FILE));
    const counting = countingLoader();
    const { runs, lines } = await readFolder(dir, counting.load);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`the store of ${dir} (${STORE_FILE}) could not be used`);
    expect(runs.map((r) => r.record.id)).toEqual(['history-1']);
    expect(counting.asked).toEqual(files);
  });
});
