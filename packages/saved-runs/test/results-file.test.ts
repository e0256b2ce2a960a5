/**
 * A results file: its default name, claimed at once so two runs never save
 * over each other, released when no run reached it; where --save and -o may
 * write, refused in one line before anything runs; and how a file is read
 * (a regular file of bounded size, gzip's unpacked, JSON parsed). Real
 * folders, no process.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { measuredBySchema, type RunRecord } from '@rtbench/core/schema';
import { MEASURER_RECORDS, RecordRegistry, type MeasurerRecord } from '@rtbench/measurer-records';
import { assertWritableOutput, claimResultsPath, defaultResultsPath, readJsonFile, readRegularFile, releaseUnsaved, tryCreatingIn, whyNotWritable } from '../src/results-file.ts';
import { isRunFileName } from '../src/run-files.ts';
import { validateRun } from '../src/validate-run.ts';
import { syntheticRun } from '../../../test/compare-synthetic.ts';
import { refusal, tempFolder } from '../../../test/helpers/refusal.ts';

const folder = (): string => tempFolder('results-file');


const RUN_TEXT = '{"schema":"rtbench.run"}';

describe('a results file\'s default name', () => {
  it('is the start\'s stamp and the suite, "-compare" for a comparison, one file name for a suite named by its path', () => {
    const at = '2026-11-24T02:52:50.123Z';
    expect(defaultResultsPath({ startedAt: at, suite: 'json', mode: 'bench' }, 'results')).toBe(join('results', '20261124-025250Z-json.json'));
    expect(defaultResultsPath({ startedAt: at, suite: 'json', mode: 'compare' }, 'r')).toBe(join('r', '20261124-025250Z-json-compare.json'));
    expect(defaultResultsPath({ startedAt: at, suite: './test/fixtures/tiny/index.ts', mode: 'bench' }, 'r')).toBe(join('r', '20261124-025250Z-test_fixtures_tiny_index.ts.json'));
    expect(defaultResultsPath({ startedAt: at, suite: 'a@1.2-x_y', mode: 'bench' }, 'r')).toBe(join('r', '20261124-025250Z-a@1.2-x_y.json'));
    expect(defaultResultsPath({ startedAt: at, suite: '..', mode: 'bench' }, 'r')).toBe(join('r', '20261124-025250Z-suite.json'));
    expect(defaultResultsPath({ startedAt: at, suite: 'my  suite//x', mode: 'bench' }, 'r')).toBe(join('r', '20261124-025250Z-my_suite_x.json'));
    expect(defaultResultsPath({ startedAt: at, suite: '._x', mode: 'bench' }, 'r')).toBe(join('r', '20261124-025250Z-x.json'));
  });
});

describe('claiming a results file', () => {
  it('creates it empty at once, in a folder made for it, so a second run started in the same second takes the next name', () => {
    const dir = folder();
    const path = join(dir, 'results', 'deep', 'run.json');
    expect(claimResultsPath(path)).toBe(path);
    expect(readFileSync(path, 'utf8')).toBe('');
    expect(claimResultsPath(path)).toBe(join(dir, 'results', 'deep', 'run-2.json'));
    expect(claimResultsPath(path)).toBe(join(dir, 'results', 'deep', 'run-3.json'));
    expect(readdirSync(join(dir, 'results', 'deep')).sort()).toEqual(['run-2.json', 'run-3.json', 'run.json']);
  });

  it('numbers the file\'s name, not a folder named like a run', () => {
    const dir = join(folder(), 'runs.json');
    expect(claimResultsPath(join(dir, 'run.json'))).toBe(join(dir, 'run.json'));
    expect(claimResultsPath(join(dir, 'run.json'))).toBe(join(dir, 'run-2.json'));
  });

  it('passes over a file left by a run that ended (a stale claim), and never writes into it', () => {
    const dir = folder();
    writeFileSync(join(dir, 'run.json'), RUN_TEXT);
    writeFileSync(join(dir, 'run-2.json'), '');
    expect(claimResultsPath(join(dir, 'run.json'))).toBe(join(dir, 'run-3.json'));
    expect(readFileSync(join(dir, 'run.json'), 'utf8')).toBe(RUN_TEXT);
  });

  it('gives up after a thousand names taken, and says any other failure as it is', () => {
    const dir = folder();
    writeFileSync(join(dir, 'run.json'), '');
    for (let n = 2; n <= 1000; n++) writeFileSync(join(dir, `run-${n}.json`), '');
    expect(() => claimResultsPath(join(dir, 'run.json'))).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    expect(existsSync(join(dir, 'run-1001.json'))).toBe(false);
    rmSync(join(dir, 'run-1000.json'));
    expect(claimResultsPath(join(dir, 'run.json'))).toBe(join(dir, 'run-1000.json'));
    expect(() => claimResultsPath('/proc/rtbench-run.json')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });

  it('is released only while nothing was saved into it; a saved run stays, and a claim gone already is no error', () => {
    const dir = folder();
    const empty = claimResultsPath(join(dir, 'run.json'));
    const saved = claimResultsPath(join(dir, 'run.json'));
    writeFileSync(saved, RUN_TEXT);
    releaseUnsaved(empty);
    releaseUnsaved(saved);
    expect(existsSync(empty)).toBe(false);
    expect(readFileSync(saved, 'utf8')).toBe(RUN_TEXT);
    expect(() => releaseUnsaved(empty)).not.toThrow();
  });
});

describe('where --save and -o may write', () => {
  it('a new file in a folder that exists, an empty file, a run (plain or compressed) to replace; no probe file left', () => {
    const dir = folder();
    expect(() => assertWritableOutput(join(dir, 'new.json'))).not.toThrow();
    writeFileSync(join(dir, 'empty.json'), '  \n');
    expect(() => assertWritableOutput(join(dir, 'empty.json'))).not.toThrow();
    writeFileSync(join(dir, 'run.json'), RUN_TEXT);
    expect(() => assertWritableOutput(join(dir, 'run.json'))).not.toThrow();
    writeFileSync(join(dir, 'run.json.gz'), gzipSync(RUN_TEXT));
    expect(() => assertWritableOutput(join(dir, 'run.json.gz'))).not.toThrow();
    expect(readdirSync(dir).sort()).toEqual(['empty.json', 'run.json', 'run.json.gz']);
  });

  it('refuses, for --save only, a file that holds something else than a run', () => {
    const dir = folder();
    const notes = join(dir, 'notes.json');
    writeFileSync(notes, '{"schema":"other"}');
    expect(refusal(() => assertWritableOutput(notes))).toBe(`--save ${notes} already holds something that is not an rtbench run; refusing to overwrite it (name another file, or remove it)`);
    writeFileSync(notes, 'not json');
    expect(refusal(() => assertWritableOutput(notes))).toContain('already holds something that is not an rtbench run');
    expect(() => assertWritableOutput(notes, '-o')).not.toThrow();
  });

  it('refuses -, a folder, a device, a link, an input, a name too long, naming the option', () => {
    const dir = folder();
    expect(refusal(() => assertWritableOutput('-'))).toBe('--save -: name a file (only -o - means stdout)');
    expect(refusal(() => assertWritableOutput('-', '--html'))).toBe('--html -: name a file (only -o - means stdout)');
    expect(refusal(() => assertWritableOutput(dir, '-o'))).toBe(`-o ${dir} is a directory; name a file, e.g. ${join(dir, 'run.json')}`);
    expect(refusal(() => assertWritableOutput('/dev/null', '-o'))).toBe('-o /dev/null is not a regular file');
    const link = join(dir, 'link.json');
    symlinkSync(join(dir, 'elsewhere.json'), link);
    expect(refusal(() => assertWritableOutput(link))).toContain(`--save ${link} is a symbolic link`);
    writeFileSync(join(dir, 'in.json'), RUN_TEXT);
    expect(refusal(() => assertWritableOutput(join(dir, 'in.json'), '-o', [join(dir, 'in.json')]))).toContain('which this command reads');
    expect(refusal(() => assertWritableOutput(join(dir, `${'x'.repeat(251)}.json`), '-o'))).toBe('-o: the file name is longer than 255 bytes, which the file system refuses');
    expect(() => assertWritableOutput(join(dir, `${'x'.repeat(250)}.json`), '-o')).not.toThrow();
    expect(refusal(() => assertWritableOutput(join(dir, `${'é'.repeat(126)}.json`), '-o'))).toContain('longer than 255 bytes');
  });

  it('refuses a path in a folder that is missing, or under a file, naming the part that is wrong', () => {
    const dir = folder();
    const missing = join(dir, 'gone', 'deeper', 'run.json');
    expect(refusal(() => assertWritableOutput(missing))).toBe(`--save ${missing}: the directory ${join(dir, 'gone', 'deeper')} does not exist`);
    writeFileSync(join(dir, 'file'), 'x');
    const under = join(dir, 'file', 'sub', 'run.json');
    expect(refusal(() => assertWritableOutput(under, '-o'))).toBe(`-o ${under}: ${join(dir, 'file')} is a file, not a directory`);
    expect(refusal(() => assertWritableOutput(join(dir, 'file', 'run.json'), '-o'))).toBe(`-o ${join(dir, 'file', 'run.json')}: ${join(dir, 'file')} is a file, not a directory`);
  });

  it('refuses a folder that takes no new files, saying why', () => {
    expect(refusal(() => assertWritableOutput('/proc/run.json', '-o'))).toBe('-o /proc/run.json: no file can be created in /proc (it takes no new files, as /proc does)');
    expect(refusal(() => tryCreatingIn('/proc', 'the cache'))).toBe('the cache: no file can be created in /proc (it takes no new files, as /proc does)');
    const dir = folder();
    tryCreatingIn(dir, 'the cache');
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('why a file cannot be written, in words', () => {
  const failed = (code?: string): Error => Object.assign(new Error(`failed with ${code ?? 'no code'}`), code ? { code } : {});

  it('names a read-only file system, a permission, a full disk, a folder that takes no files; any other code as it is', () => {
    expect(whyNotWritable(failed('EROFS'), '/mnt/ro')).toBe('/mnt/ro is on a read-only file system');
    expect(['EACCES', 'EPERM'].map((code) => whyNotWritable(failed(code), '/d'))).toEqual(['permission denied', 'permission denied']);
    expect(['ENOSPC', 'EDQUOT'].map((code) => whyNotWritable(failed(code), '/d'))).toEqual(['the disk is full', 'the disk is full']);
    expect(whyNotWritable(failed('ENOENT'), '/proc')).toBe('it takes no new files, as /proc does');
    expect(whyNotWritable(failed('EIO'), '/d')).toBe('EIO');
    expect(whyNotWritable(failed(), '/d')).toBe('failed with no code');
  });
});

describe('reading a file', () => {
  it('a run file is named .json or .json.gz', () => {
    expect(['a.json', 'a.json.gz', 'a.gz', 'a.jsonl', 'json', 'a.json.bak'].map(isRunFileName)).toEqual([true, true, false, false, false, false]);
  });

  it('reads text, and gzip\'s by its bytes whatever the name', () => {
    const dir = folder();
    writeFileSync(join(dir, 'a.json'), RUN_TEXT);
    writeFileSync(join(dir, 'b.json'), gzipSync(RUN_TEXT));
    writeFileSync(join(dir, 'one.json'), '\x1f');
    expect(readRegularFile(join(dir, 'a.json'))).toBe(RUN_TEXT);
    expect(readRegularFile(join(dir, 'b.json'))).toBe(RUN_TEXT);
    expect(readRegularFile(join(dir, 'one.json'))).toBe('\x1f');
    // Text is read as text unless both of gzip's first two bytes are there.
    for (const bytes of [[0x41, 0x8b], [0x1f, 0x41]]) {
      writeFileSync(join(dir, 'two.json'), Buffer.from(bytes));
      expect(readRegularFile(join(dir, 'two.json'))).toBe(Buffer.from(bytes).toString('utf8'));
    }
    writeFileSync(join(dir, 'magic.json'), Buffer.from([0x1f, 0x8b]));
    expect(refusal(() => readRegularFile(join(dir, 'magic.json')))).toContain('is not a readable gzip file');
  });

  it('closes every file it opens, read or refused', () => {
    const dir = folder();
    writeFileSync(join(dir, 'a.json'), RUN_TEXT);
    writeFileSync(join(dir, 'big.json'), 'x'.repeat(64));
    const open = (): number => readdirSync('/proc/self/fd').length;
    const before = open();
    for (let i = 0; i < 20; i++) {
      readRegularFile(join(dir, 'a.json'));
      refusal(() => readRegularFile(join(dir, 'big.json'), 8));
      refusal(() => readRegularFile(dir));
    }
    expect(open()).toBe(before);
  });

  it('refuses a folder, a device, a missing file, a file or an unpacked file over the bound, a corrupt gzip, each in one line', () => {
    const dir = folder();
    expect(refusal(() => readRegularFile(dir))).toBe(`${dir} is a directory, not a run file`);
    expect(refusal(() => readRegularFile('/dev/null'))).toBe('/dev/null is not a regular file');
    expect(refusal(() => readRegularFile(join(dir, 'gone.json')))).toBe(`cannot read ${join(dir, 'gone.json')}: ENOENT`);
    writeFileSync(join(dir, 'big.json'), 'x'.repeat(2048));
    expect(refusal(() => readRegularFile(join(dir, 'big.json'), 1024))).toBe(`${join(dir, 'big.json')} is 2KiB, more than the 1KiB rtbench reads of a file; not read`);
    expect(readRegularFile(join(dir, 'big.json'), 2048)).toHaveLength(2048);
    writeFileSync(join(dir, 'bomb.json.gz'), gzipSync('x'.repeat(4096)));
    expect(refusal(() => readRegularFile(join(dir, 'bomb.json.gz'), 1024))).toBe(`${join(dir, 'bomb.json.gz')} is more when unpacked, more than the 1KiB rtbench reads of a file; not read`);
    writeFileSync(join(dir, 'bad.json.gz'), Buffer.from([0x1f, 0x8b, 1, 2, 3]));
    expect(refusal(() => readRegularFile(join(dir, 'bad.json.gz')))).toMatch(new RegExp(`^${join(dir, 'bad.json.gz')} is not a readable gzip file \\(truncated or corrupt\\?\\): .+`));
  });

  it('parses JSON, and says an empty or corrupt file in one line', () => {
    const dir = folder();
    mkdirSync(join(dir, 'd'));
    writeFileSync(join(dir, 'a.json'), RUN_TEXT);
    writeFileSync(join(dir, 'empty.json'), ' \n');
    writeFileSync(join(dir, 'cut.json'), '{"schema":');
    expect(readJsonFile(join(dir, 'a.json'))).toEqual({ schema: 'rtbench.run' });
    expect(refusal(() => readJsonFile(join(dir, 'empty.json')))).toBe(`${join(dir, 'empty.json')} is not valid JSON (truncated or corrupt?): the file is empty`);
    const cut = refusal(() => readJsonFile(join(dir, 'cut.json')));
    expect(cut).toMatch(new RegExp(`^${join(dir, 'cut.json')} is not valid JSON \\(truncated or corrupt\\?\\): .+`));
    expect(cut).not.toContain('the file is empty');
    expect(refusal(() => readJsonFile(join(dir, 'd')))).toContain('is a directory');
  });
});

describe("a run's consistency, which its schema cannot say", () => {
  const run = syntheticRun({ cases: [{ id: 'a', ns: 1000 }, { id: 'b', ns: 2000 }], arms: [{ id: 'node', factor: 1 }, { id: 'deno', factor: 1.1 }], rounds: 3 });
  const edited = (edit: (run: RunRecord) => void): RunRecord => {
    const copy = JSON.parse(JSON.stringify(run)) as RunRecord;
    edit(copy);
    return copy;
  };
  /** What validating the run, edited by `edit`, refuses it for (after the file's name). */
  const problems = (edit: (run: RunRecord) => void): string => refusal(() => validateRun(edited(edit), 'run.json')).replace(/^run\.json is not a consistent rtbench run: /, '');
  const result = (r: RunRecord, caseId: string, variantId: string): RunRecord['results'][number] => r.results.find((x) => x.caseId === caseId && x.variantId === variantId)!;

  it('is read as made', () => {
    expect(validateRun(edited(() => {}), 'run.json').results).toHaveLength(4);
    expect(validateRun(edited((r) => void (r.options.seed = 0)), 'run.json').options.seed).toBe(0);
  });

  it('names each problem, the first three joined', () => {
    expect(problems((r) => void r.variants.push({ ...r.variants[0]! }))).toBe('variant "node" is listed twice');
    expect(problems((r) => void r.cases.push({ ...r.cases[0]! }))).toBe('case "a" is listed twice');
    expect(problems((r) => void r.results.push(structuredClone(r.results[0]!)))).toBe('the results hold "a" on "node" twice');
    expect(problems((r) => void (r.options.rounds = 1.5))).toBe('options.rounds is 1.5, not a whole number ≥ 1');
    expect(problems((r) => void (r.options.rounds = 0))).toBe('options.rounds is 0, not a whole number ≥ 1');
    expect(problems((r) => void (r.options.timeMs = -1))).toBe('options.timeMs is -1');
    expect(problems((r) => void (result(r, 'a', 'node').caseId = 'z'))).toBe('it holds no result for "a" on "node"; the result for "z" on "node" names a case the run does not list');
    expect(problems((r) => void (result(r, 'a', 'node').variantId = 'bun'))).toBe('it holds no result for "a" on "node"; the result for "a" on "bun" names a variant the run does not list');
    expect(problems((r) => void (result(r, 'b', 'deno').rounds[1]!.samples = []))).toBe('the result for "b" on "deno" has a round (1) without samples');
    expect(problems((r) => void (result(r, 'b', 'deno').rounds[1]!.round = 0))).toBe('the result for "b" on "deno" has round 0 twice');
    const summaryOnly = (r: RunRecord): void => {
      const x = result(r, 'a', 'node');
      x.rounds = [];
      delete x.stats;
      x.memory = { rounds: 1, peakBytes: 1e6, peakAboveOpenBytes: 0 };
    };
    expect(problems(summaryOnly)).toBe('the result for "a" on "node" holds a memory summary but no rounds to read them from');
    expect(problems((r) => void (r.digestMismatches = [{ caseId: 'z', digests: { node: 'x', bun: 'y' } }]))).toBe(
      'a digest mismatch names case "z", which the run does not list; a digest mismatch names variant "bun", which the run does not list',
    );
    expect(problems((r) => void r.cases.push({ ...r.cases[0]! }, { ...r.cases[1]! }, { ...r.cases[1]!, id: 'c' }))).toBe(
      'case "a" is listed twice; case "b" is listed twice; it holds no result for "c" on "node" and 1 more case × variant',
    );
    expect(problems((r) => void r.cases.push({ ...r.cases[0]! }, { ...r.cases[1]! }, { ...r.cases[1]!, id: 'c' }, { ...r.cases[1]!, id: 'd' }))).toMatch(/; it holds no result for "c" on "node" and 3 more case × variant$/);
    const four = (r: RunRecord): void => {
      r.variants.push({ ...r.variants[0]! });
      r.cases.push({ ...r.cases[0]! }, { ...r.cases[1]! });
      r.digestMismatches = [{ caseId: 'z', digests: {} }];
    };
    expect(problems(four)).toBe('variant "node" is listed twice; case "a" is listed twice; case "b" is listed twice');
  });
});

describe('an older run, read with what it does not record itself', () => {
  const base = syntheticRun({ cases: [{ id: 'a', ns: 1000 }], arms: [{ id: 'node', factor: 1 }, { id: 'node@24', factor: 1 }], rounds: 2 });
  const copy = (edit: (run: RunRecord) => void = () => {}): RunRecord => {
    const run = structuredClone(base);
    edit(run);
    return run;
  };
  const WORDS = { rounds: 'its own rounds', paired: 'its own pairs', unpaired: 'its own test' };
  /** A registry without the run's measurer. */
  const lacking = new RecordRegistry([]);

  it('is described by the measurer it names; words it saved are kept', () => {
    expect(validateRun(copy(), 'run.json').options.measuredBy).toEqual(MEASURER_RECORDS.measuredBy(base.options));
    expect(validateRun(copy((r) => void (r.options.measuredBy = WORDS)), 'run.json').options.measuredBy).toEqual(WORDS);
  });

  it('naming a measurer this rtbench lacks is refused in one line, unless it saved its words and verdict', () => {
    expect(refusal(() => validateRun(copy(), 'run.json', lacking))).toBe('run.json was measured by "processes", a measurer this rtbench does not have (it has )');
    expect(refusal(() => validateRun(copy((r) => void (r.options.measuredBy = WORDS)), 'run.json', lacking))).toMatch(/^run\.json was measured by "processes"/);
    const own = copy((r) => Object.assign(r.options, { measuredBy: WORDS, verdict: { threshold: 0.01, confidence: 0.95 } }));
    expect(validateRun(own, 'run.json', lacking).options.measuredBy).toEqual(WORDS);
  });

  it("whose measurer's fields its measurer does not take is refused in one line", () => {
    // Any schema the fields miss: one that asks for words they do not hold.
    const strict = { ...MEASURER_RECORDS.recorded(undefined), schema: measuredBySchema } as unknown as MeasurerRecord;
    const run = copy((r) => void (r.options.measurerFields = { n: 1 }));
    expect(refusal(() => validateRun(run, 'run.json', new RecordRegistry([strict])))).toMatch(/^run\.json is not a valid rtbench run: its measurer's fields do not match what processes records: /);
  });

  it("has each variant named by its runtime's plug-in, where it saved no names of its own", () => {
    const names = (run: RunRecord): unknown[] => validateRun(run, 'run.json').variants.map((v) => v.displayNames);
    const node = { runtime: 'Node.js', engine: 'V8', engineShort: 'V8' };
    expect(names(copy())).toEqual([node, node]);
    const mine = { runtime: 'my node' };
    expect(names(copy((r) => void (r.variants[1]!.displayNames = mine)))).toEqual([node, mine]);
  });
});
