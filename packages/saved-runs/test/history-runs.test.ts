/** The runs a history reads: one that cannot be read or summarised is named in one line, and the others are read. No process started. */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '@rtbench/core/usage-error';
import { loadSavedRun, readForHistory, readHistoryRuns, readRegularFile } from '../src/index.ts';
import { writeRun } from '../../../test/compare-synthetic.ts';
import { historyRuns } from '../../../test/history-synthetic.ts';

describe('the runs a history reads', () => {
  it('a run the loader cannot summarise, and a file that is not a run, are each named in one line; the others are read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-history-runs-'));
    const files = historyRuns([1, 1, 1].map((factor) => ({ factor })), { cases: [{ id: 'parse', ns: 1_000 }], rounds: 6, suite: 'synthetic' }).map((run, i) => writeRun(join(dir, `run-${i}.json`), run));
    writeFileSync(join(dir, 'other.json'), '{"hello": "world"}\n');
    // As a round that timed out before its phases were read fails its summary.
    const load = (file: string): ReturnType<typeof readForHistory> => {
      if (file === files[1]) throw new RangeError('phase 2 ends past the samples');
      return readForHistory(file);
    };
    const { inputs, lines } = readHistoryRuns([dir], load);
    expect(inputs.map((x) => x.file)).toEqual([files[0], files[2]]);
    expect(lines).toEqual([
      { level: 'skipped', text: `skipped ${join(dir, 'other.json')} is not an rtbench run (its "schema" is missing, expected "rtbench.run")` },
      { level: 'skipped', text: `skipped ${files[1]}: it cannot be summarised (phase 2 ends past the samples)` },
    ]);
  });

  it('reads a run compressed with gzip (.json.gz) as the run it holds, and names a corrupt or oversized one in one line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-history-gz-'));
    const [a, b] = historyRuns([1, 1.5].map((factor) => ({ factor })), { cases: [{ id: 'parse', ns: 1_000 }], rounds: 6, suite: 'synthetic' }).map((run, i) => writeRun(join(dir, `run-${i}.json`), run));
    const plain = readHistoryRuns([dir], readForHistory);
    const whole = loadSavedRun(b!).run;
    // The second run compressed in place, as `gzip results/*.json` leaves it; and a file that only says it is gzip.
    writeFileSync(`${b!}.gz`, gzipSync(readFileSync(b!)));
    rmSync(b!);
    writeFileSync(join(dir, 'run-9.json.gz'), Buffer.from([0x1f, 0x8b, 1, 2, 3]));
    expect(loadSavedRun(`${b!}.gz`).run).toEqual(whole);
    const { inputs, lines } = readHistoryRuns([dir], readForHistory);
    expect(inputs.map((x) => x.record)).toEqual(plain.inputs.map((x) => x.record));
    expect(inputs.map((x) => x.file)).toEqual([a, `${b!}.gz`]);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.text).toMatch(/^skipped .*run-9\.json\.gz is not a readable gzip file \(truncated or corrupt\?\): /);
    // Refused by what it unpacks to, not only by its size on disk.
    const packed = statSync(`${b!}.gz`).size;
    expect(() => readRegularFile(`${b!}.gz`, packed)).toThrow(/run-1\.json\.gz is more when unpacked, more than the .* rtbench reads of a file; not read$/);
  });
});

describe('one run in several files', () => {
  const runs = (dir: string): string[] =>
    historyRuns([1, 1.2, 1.4].map((factor) => ({ factor })), { cases: [{ id: 'parse', ns: 1_000 }], rounds: 4, suite: 'synthetic' }).map((run, i) => writeRun(join(dir, `run-${i}.json`), run));

  it('a copy (the same id, the same record) is read once, said as an info line naming both', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-history-copy-'));
    const [a, b] = runs(dir);
    const copy = join(dir, 'run-0-copy.json');
    writeFileSync(copy, readFileSync(a!));
    const { inputs, lines } = readHistoryRuns([dir], readForHistory);
    // Sorted by name: run-0-copy.json comes before run-0.json, and is the one read.
    expect(inputs.map((x) => x.file)).toEqual([copy, b, join(dir, 'run-2.json')]);
    expect(lines).toEqual([{ level: 'info', text: `${a} is the same run as ${copy} (id history-1): read once` }]);
  });

  it('two files that claim one id with different records are both left out, in one line, whichever sorts first; the others read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-history-contested-'));
    const [a, b, c] = runs(dir);
    const edited = loadSavedRun(b!).run;
    // The edited copy names the first run's id.
    const forged = join(dir, 'run-1.json');
    writeFileSync(forged, JSON.stringify({ ...edited, id: 'history-1' }));
    const { inputs, lines } = readHistoryRuns([dir], readForHistory);
    expect(inputs.map((x) => x.file)).toEqual([c]);
    expect(lines).toEqual([{ level: 'skipped', text: `skipped ${forged} and ${a}: both say they are run history-1 but hold different records (one was edited), so neither is read` }]);
  });

  it('a file named twice, as itself and through its folder, is read once, as first named', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-history-twice-'));
    const [a, b, c] = runs(dir);
    const named = relative(process.cwd(), b!);
    expect(named).not.toBe(b);
    const { inputs, lines } = readHistoryRuns([named, dir], readForHistory);
    expect(inputs.map((x) => x.file)).toEqual([named, a, c]);
    expect(lines).toEqual([]);
  });

  it("a run's notes are warnings naming its file; a refusal that does not name the file is given its name", () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-history-notes-'));
    const [a, b] = runs(dir);
    const { run } = loadSavedRun(a!);
    run.results[0]!.stats!.median *= 3;
    writeFileSync(a!, JSON.stringify(run));
    const load = (file: string): ReturnType<typeof readForHistory> => {
      if (file === b) throw new UsageError('its rounds are not this version');
      return readForHistory(file);
    };
    const { inputs, lines } = readHistoryRuns([dir], load);
    expect(inputs.map((x) => x.file)).toEqual([a, join(dir, 'run-2.json')]);
    expect(lines).toEqual([
      { level: 'warning', text: `warning: ${a}: the samples of "parse" on node@24 do not give the statistics stored with them (the file was edited after it was saved?): the figures shown are the samples'` },
      { level: 'skipped', text: `skipped ${b}: its rounds are not this version` },
    ]);
  });
});
