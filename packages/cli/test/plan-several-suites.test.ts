/**
 * `rtbench bench a b c`: what the command line means for several suites in
 * one process (run/several-suites.ts), decided before anything runs: where
 * each run is saved, what --html, -o and --format mean, and which lines are
 * refused. test/suites.test.ts runs the repository's suites this way.
 */
import { describe, expect, it } from 'vitest';
import { parseCommandArgs } from '../src/args/args.ts';
import { bench } from '../src/commands/bench.ts';
import { savedName, suiteHeading, suiteTargets } from '../src/run/several-suites.ts';
import { expectUsageError } from './usage-lines.ts';

/** The outputs a person reads, and one that is a document a run. */
const table = { format: 'terminal', read: true };
const json = { format: 'json', read: false };

describe('several suites in one bench', () => {
  it('takes every suite named, before or after the options; --compare still leaves the last argument to the suites', () => {
    expect(parseCommandArgs(['trig', 'streams', '--runtime', 'node', 'harness'], bench).positionals).toEqual(['trig', 'streams', 'harness']);
    const compared = parseCommandArgs(['--compare', 'node@24', 'node@26', 'trig'], bench);
    expect(compared.positionals).toEqual(['trig']);
    expect(compared.flags.compare).toEqual(['node@24', 'node@26']);
    expect(parseCommandArgs(['trig', 'streams', '--compare', 'node@24', 'node@26'], bench).positionals).toEqual(['trig', 'streams']);
  });

  it('leaves a lone suite its --save file and --html page as given', () => {
    expect(suiteTargets(['trig'], { save: 'run.json', html: 'page.html', output: 'out.md' }, json)).toEqual([{ suite: 'trig', save: 'run.json', html: 'page.html' }]);
    expect(suiteTargets(['trig'], {}, table)).toEqual([{ suite: 'trig' }]);
  });

  it('saves each of several in the --save folder under its name, and each page beside its run', () => {
    expect(suiteTargets(['trig', 'bench/streams/', 'test/fixtures/tiny/index.ts'], { save: 'out', html: true }, table)).toEqual([
      { suite: 'trig', save: 'out/trig.json', html: true },
      { suite: 'bench/streams/', save: 'out/bench_streams.json', html: true },
      { suite: 'test/fixtures/tiny/index.ts', save: 'out/test_fixtures_tiny_index.ts.json', html: true },
    ]);
    // Without --save, each run goes to results/ under its own time and name (measure-suite.ts).
    expect(suiteTargets(['trig', 'streams'], {}, { format: 'markdown', read: true })).toEqual([{ suite: 'trig' }, { suite: 'streams' }]);
    expect(savedName('../x')).toBe('x.json');
  });

  it.each([
    [{ html: 'page.html' }, table, /^--html page\.html names one page; with several suites \(trig, streams\) give --html alone/],
    [{ output: 'out.txt' }, table, /^--output out\.txt takes one suite's output/],
    [{}, json, /^--format json writes one document a run; .*rtbench report --format json/],
    [{}, { format: 'csv', read: false }, /^--format csv writes one document a run/],
  ])('refuses %j in %j for several suites', (flags, output, message) => {
    expect(() => suiteTargets(['trig', 'streams'], flags, output)).toThrow(message);
  });

  it('refuses a suite named twice, or two whose runs would take one name', () => {
    expect(() => suiteTargets(['trig', 'streams', 'trig'], {}, table)).toThrow(/^trig is named twice$/);
    expect(() => suiteTargets(['trig', 'trig/'], { save: 'out' }, table)).toThrow(/^trig and trig\/ would be saved under one name \(trig\.json\)/);
  });

  it("names each suite above its table, after a blank line, where the format's table does not", () => {
    expect([0, 1].map((i) => suiteHeading('trig', i, false))).toEqual(['trig\n', '\ntrig\n']);
    // Markdown's table has a heading with the suite's name.
    expect([0, 1].map((i) => suiteHeading('trig', i, true))).toEqual(['', '\n']);
  });

  it('refuses on the command line, before any suite is planned', async () => {
    await expectUsageError(['bench', 'trig', 'streams', '--format', 'csv'], /^error: --format csv writes one document a run/);
    await expectUsageError(['bench', 'trig', 'trig', '--runtime', 'node'], /^error: trig is named twice$/);
  });
});
