/**
 * `rtbench compare <a.json> <b.json>` on saved runs, and `bench --compare`'s
 * refusals of bad variants, run by the command line in the test's own
 * process (command-run.ts, its streams read by commandStreams): verdicts and
 * their intervals, the regression gate's exit code and lines, the markdown
 * table, suites that differ, and each bad file or variant refused in one
 * line (an unknown runtime, found once the runtimes answered:
 * usage-probed.test.ts). A real `bench --compare` run, and its saved run
 * compared again: test/compare.test.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseRun } from '@rtbench/core/schema';
import type { ComparisonView } from '@rtbench/report';
import { compareUnpaired, median } from '@rtbench/stats';
import { fixture, tempFile } from '../../../test/helpers/cli.ts';
import { syntheticRun, writeRun } from '../../../test/compare-synthetic.ts';
import { commandStreams as runCli } from './usage-lines.ts';

const cases = [
  { id: 'parse / small', ns: 1_000 },
  { id: 'parse / large', ns: 50_000 },
  { id: 'stringify', ns: 8_000 },
];

/** Two saved single-variant runs: b is 10% slower on every case, with seeded noise. */
function savedPair(): { a: string; b: string } {
  const a = writeRun(tempFile('a.json'), syntheticRun({ cases, arms: [{ id: 'node@24', factor: 1 }], rounds: 12, seed: 11 }));
  const b = writeRun(tempFile('b.json'), syntheticRun({ cases, arms: [{ id: 'node@24', factor: 1.1 }], rounds: 12, seed: 12 }));
  return { a, b };
}

function noStack(stderr: string): void {
  expect(stderr).not.toMatch(/\n\s+at /);
  expect(stderr).not.toMatch(/\.ts:\d+:\d+/);
}

describe.concurrent('rtbench compare <a.json> <b.json>', () => {
  it('finds a 10% slowdown: verdict slower with the Mann-Whitney CI of the per-round medians', async () => {
    const { a, b } = savedPair();
    const r = await runCli(['compare', a, b, '--format', 'json']);
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as ComparisonView;
    expect(report.pairing).toBe('unpaired');
    const runA = parseRun(JSON.parse(readFileSync(a, 'utf8')), a);
    const runB = parseRun(JSON.parse(readFileSync(b, 'utf8')), b);
    for (const row of report.sections[0]!.cases) {
      const medians = (run: typeof runA): number[] => run.results.find((x) => x.caseId === row.caseId)!.rounds.map((x) => median(x.samples));
      const expected = compareUnpaired(medians(runA), medians(runB));
      expect(row.comparison!.verdict).toBe('slower');
      expect(row.comparison!.ratio).toBeCloseTo(expected.ratio, 12);
      expect(row.comparison!.ci[0]).toBeCloseTo(expected.ci[0], 12);
      expect(row.comparison!.ci[1]).toBeCloseTo(expected.ci[1], 12);
      expect(row.comparison!.ci[0]).toBeGreaterThan(1.0);
      expect(row.comparison!.ci[0]).toBeLessThan(1.1);
      expect(row.comparison!.ci[1]).toBeGreaterThan(1.1);
    }
    expect(report.sections[0]!.geomean!.ratio).toBeGreaterThan(1.05);
    expect(report.sections[0]!.geomean!.ratio).toBeLessThan(1.15);
  });

  it('--fail-on-regression exits 1 when a case is slower beyond the limit, 0 when within it', async () => {
    const { a, b } = savedPair();
    const failing = await runCli(['compare', a, b, '--fail-on-regression', '5']);
    expect(failing.status).toBe(1);
    expect(failing.stdout).toContain('slower');
    expect(failing.stderr).toMatch(/✗ regression: "parse \/ small" node@24 \(b\.json\) is slower than node@24 \(a\.json\) by \d+\.\d%/);
    const passing = await runCli(['compare', a, b, '--fail-on-regression', '25%']);
    expect(passing.status, passing.stderr).toBe(0);
    expect(passing.stderr).toContain('no case is significantly slower by more than 25%');
    // the other direction is faster, never a regression
    expect((await runCli(['compare', b, a, '--fail-on-regression', '1'])).status).toBe(0);
  });

  it('--fail-on-regression does not pass a case head failed (no samples, so no verdict); the same runs pass without the failure', async () => {
    const base = syntheticRun({ cases, arms: [{ id: 'node@24', factor: 1 }], rounds: 12, seed: 11 });
    const head = syntheticRun({ cases, arms: [{ id: 'node@24', factor: 1 }], rounds: 12, seed: 12 });
    const a = writeRun(tempFile('base.json'), base);
    const same = writeRun(tempFile('same.json'), head);
    const broken = head.results[0]!;
    Object.assign(broken, { status: 'failed', rounds: [], failures: [{ kind: 'timeout', message: 'no answer within 60 s\nsecond line' }] });
    delete broken.stats;
    head.status = 'failed';
    const b = writeRun(tempFile('head.json'), head);
    const [failing, passing] = await Promise.all([runCli(['compare', a, b, '--fail-on-regression', '5%']), runCli(['compare', a, same, '--fail-on-regression', '5%'])]);
    expect(passing.status, passing.stderr).toBe(0);
    expect(failing.status, failing.stderr).toBe(1);
    expect(failing.stderr).toContain(`✗ "${broken.caseId}" on node@24 (head.json) could not be judged: it failed (timeout: no answer within 60 s); --fail-on-regression does not pass a case it could not judge`);
    // A gate that fails never also says that no case is slower.
    expect(failing.stderr).not.toContain('✓');
    expect(failing.stderr).not.toContain('no case is significantly slower');
  });

  it('prints a markdown verdict table ready for a pull request', async () => {
    const { a, b } = savedPair();
    const r = await runCli(['compare', a, b, '--markdown']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('### rtbench compare: synthetic');
    expect(r.stdout).toContain('| case | `node@24 (a.json)` | `node@24 (b.json)` | ratio [interval] | verdict | q |');
    expect(r.stdout).toMatch(/\| parse \/ small \| .* \| .* \| 1\.\d{3} \[1\.\d{3}–1\.\d{3}\] \| \*\*slower\*\* \+\d+\.\d% \| <0\.001 \|/);
    expect(r.stdout).toContain('| baseline `node@24 (a.json)` | Node.js 24.1.0, V8 13.6.233.17 | — | `aaaaaaaaaaaa` |');
    expect(r.stdout).toContain('**Geometric mean** over 3 cases');
  });

  it('says when the suites differ, compares the cases with the same id and names the rest', async () => {
    const a = writeRun(tempFile('a.json'), syntheticRun({ cases, arms: [{ id: 'node@24', factor: 1 }], rounds: 8 }));
    const other = [cases[0]!, { id: 'only in b', ns: 10 }];
    const b = writeRun(tempFile('b.json'), syntheticRun({ suite: 'other-suite', cases: other, arms: [{ id: 'node@26', factor: 1 }], rounds: 8, seed: 3 }));
    const r = await runCli(['compare', a, b]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('different suites: a.json is "synthetic", b.json is "other-suite"');
    expect(r.stdout).toContain('2 cases only in a.json: "parse / large", "stringify"');
    expect(r.stdout).toContain('1 case only in b.json: "only in b"');
    expect(r.stdout).toContain('parse / small');
    // the single variant of each run is compared even though the ids differ
    expect(r.stdout).toContain('node@26 vs node@24 (baseline)');
  });

  it('compares the variants of one saved run again, as a table: each against the first, with the ratio and its interval', async () => {
    const one = writeRun(tempFile('one.json'), syntheticRun({ cases, arms: [{ id: 'node@24', factor: 1 }, { id: 'node@26', factor: 0.8 }], rounds: 8, seed: 5 }));
    const r = await runCli(['compare', one]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('node@26 vs node@24 (baseline)');
    expect(r.stdout).toMatch(/ratio \[interval\]/);
  });

  it('refuses runs with nothing in common, in one line', async () => {
    const a = writeRun(tempFile('a.json'), syntheticRun({ cases, arms: [{ id: 'node@24', factor: 1 }], rounds: 4 }));
    const b = writeRun(tempFile('b.json'), syntheticRun({ suite: 'x', cases: [{ id: 'zzz', ns: 5 }], arms: [{ id: 'node@24', factor: 1 }], rounds: 4 }));
    const r = await runCli(['compare', a, b]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('have no case in common');
  });

  it('gives a one-line error for a truncated file, with no stack trace', async () => {
    const { a } = savedPair();
    const text = readFileSync(a, 'utf8');
    const cut = tempFile('cut.json');
    writeFileSync(cut, text.slice(0, Math.floor(text.length / 2)));
    const r = await runCli(['compare', a, cut]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/cut\.json is not valid JSON \(truncated or corrupt\?\)/);
    noStack(r.stderr);
  });

  it('refuses, in one line, a run of a newer schema version (even one that carries every field) or of no valid version, in compare and report', async () => {
    const { a, b } = savedPair();
    const cases: [string, unknown, RegExp][] = [
      ['v2.json', 2, /v2\.json has schema version 2, from a newer rtbench; this one reads version 1/],
      ['text.json', 'banana', /text\.json has no valid schema version \("banana"\); this rtbench reads version 1/],
      ['none.json', undefined, /none\.json has no valid schema version \(missing\)/],
      ['half.json', 1.5, /half\.json has no valid schema version \(1\.5\)/],
    ];
    for (const [name, version, said] of cases) {
      const file = tempFile(name);
      writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(b, 'utf8')), schemaVersion: version }));
      for (const args of [['compare', a, file], ['report', file, '--format', 'json']]) {
        const r = await runCli(args);
        expect(r.status, `${args.join(' ')}: ${r.stdout}`).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr.trim().split('\n')).toHaveLength(1);
        expect(r.stderr).toMatch(said);
        noStack(r.stderr);
      }
    }
  });

  it('says what a file is when it is not a run, and what to do when given variants', async () => {
    const notRun = tempFile('x.json');
    writeFileSync(notRun, '{"hello": 1}');
    const alsoNotRun = tempFile('y.json');
    writeFileSync(alsoNotRun, '{"hello": 2}');
    const r = await runCli(['compare', notRun, alsoNotRun]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('is not an rtbench run');
    const v = await runCli(['compare', 'node@24', 'node@26']);
    expect(v.status).toBe(2);
    expect(v.stderr).toContain('looks like a variant, not a results file');
    expect(v.stderr).toContain('--compare');
  });
});

describe.concurrent('bench --compare: bad variants', () => {
  it('shows the variant syntax when a variant cannot be parsed', async () => {
    const r = await runCli(['bench', fixture('tiny'), '--compare', 'node@24', 'node@26 max-semi-space-size=64']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('cannot parse "max-semi-space-size=64" in variant "node@26 max-semi-space-size=64"');
    expect(r.stderr).toContain('<runtime> [--engine-flag[=value] ...] [ENV=value ...]');
    noStack(r.stderr);
  });


  it('refuses --runtime with --compare, an unknown format, and two formats at once', async () => {
    expect((await runCli(['bench', fixture('tiny'), '--runtime', 'node@24', '--compare', 'node@24', 'node@26'])).stderr).toContain('use either --runtime');
    expect((await runCli(['bench', fixture('tiny'), '--format', 'xml'])).stderr).toContain('--format xml: expected one of terminal, markdown, json');
    expect((await runCli(['bench', fixture('tiny'), '--json', '--markdown'])).stderr).toContain('choose one output format');
    expect((await runCli(['bench', fixture('tiny'), '--compare', 'node@24', 'node@26', '--threshold', 'abc'])).stderr).toContain('--threshold abc: expected a percentage');
  });
});
