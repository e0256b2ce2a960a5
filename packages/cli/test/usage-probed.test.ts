/**
 * Plain mistakes the command line finds once the runtimes it names have
 * answered their probe (a case filter, a runtime's name, where --save and
 * --html write, what claims are asked of): each a single clear
 * line and exit code 2, nothing run. The command line runs in the test's own
 * process (command-run.ts), so each costs a runtime's probe, not a CLI start;
 * usage-errors.test.ts has the mistakes found before any runtime is asked,
 * test/faults/usage.test.ts the real command (and a broken suite, which only
 * the real command loads as a user's would be).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, tempFile } from '../../../test/helpers/cli.ts';
import { savedName } from '../src/run/several-suites.ts';
import { commandLine, expectUsageError } from './usage-lines.ts';

describe.concurrent('mistakes found once a runtime answered', () => {
  const bench = (...extra: string[]): string[] => ['bench', fixture('tiny'), '--runtime', 'node', ...extra];

  it.each([
    [['--filter', '2000'], /--filter "2000" matches no case/],
    // Repeated list options are read, every one of them.
    [['--runtime', 'nodejs@99'], /unknown runtime "nodejs@99"\. Known: .*node@24/],
    [['--runtime', 'node', '--runtime', 'nodejs@98'], /unknown runtime "nodejs@98"/],
    [['--filter', 'nothing', '--filter', '2000'], /--filter "nothing,2000" matches no case/],
    [['--filter', '/(a+)+$/'], /--filter "\/\(a\+\)\+\$\/" matches no case/],
    [['--filter', '/(a)\\1/'], /--filter \/\(a\)\\1\/: .*linear time/],
    [['--html', '/sys/x.html'], /--html \/sys\/x\.html: no file can be created in \/sys/],
    // Moved from test/cli.test.ts, where it was a CLI start.
    [['--html', '/no/such/dir/report.html'], /--html \/no\/such\/dir\/report\.html: the directory \/no\/such\/dir does not exist/],
  ])('bench %j', (extra, message) => expectUsageError(bench(...extra), message));

  // Moved from test/profile-cli.test.ts, where they were CLI starts. A request case's server takes CPU profiles
  // (packages/cli/test/request-cases.test.ts); an allocation profile of one is refused, saying what to use instead.
  it('refuses --profile on a suite timed by the host, and --profile alloc on request cases, before running anything', async () => {
    await expectUsageError(['bench', 'cold-start', '--runtime', 'node', '--profile', '--quiet'], /--profile profiles cases that run inside the runtime/);
    await expectUsageError(
      ['bench', fixture('request-cases'), '--runtime', 'node', '--profile', 'cpu,alloc', '--quiet'],
      /request-shaped .*: its servers take CPU profiles \(--profile cpu\); --profile alloc samples cases that run inside the runtime's measured loop: to take one of that code, call it from a bench case/,
    );
  });

  it('reads --compare up to the suite after it, --html without a file, and options before the command', async () => {
    await expectUsageError(['bench', '--compare', 'node@24', 'nodejs@99', fixture('tiny')], /unknown runtime "nodejs@99"/);
    await expectUsageError(['bench', '--html', fixture('tiny'), '--runtime', 'nodejs@99'], /unknown runtime "nodejs@99"/);
    await expectUsageError(['--runtime', 'nodejs@99', 'bench', fixture('tiny')], /unknown runtime "nodejs@99"/);
  });

  it('refuses a mistake in the last of several suites before the first runs, and --save naming a file for several', async () => {
    const folder = join(dirname(tempFile('x')), 'runs');
    await expectUsageError(['bench', fixture('tiny'), 'no-such-suite', '--runtime', 'node', '--save', folder], /no-such-suite/);
    // Each suite is planned before the first starts: the first one's run was never saved.
    expect(existsSync(join(folder, savedName(fixture('tiny'))))).toBe(false);
    const file = tempFile('run.json');
    writeFileSync(file, '');
    await expectUsageError(['bench', fixture('tiny'), 'trig', '--runtime', 'node', '--save', file], /--save .*run\.json is a file; with several suites --save names a folder/);
  });

  it('prints a message that goes on with a list under its first line, a line each, the first ten and a count, never a literal \\n', async () => {
    const said = await commandLine(['bench', 'json-reviver', '--runtime', 'node', '--filter', 'no such case']);
    expect(said.status, said.stderr).toBe(2);
    const lines = said.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe('error: --filter "no such case" matches no case. Cases:');
    expect(said.stderr).toContain('parse / no reviver [size=10kb]');
    expect(lines.slice(1, 11).every((l) => /^ {4}\S/.test(l))).toBe(true);
    expect(lines.slice(11)).toEqual([expect.stringMatching(/^ {2}… and \d+ more$/)]);
    expect(said.stderr).not.toContain('\\n');
  });

  // Moved from packages/cli/test/faults/saving.test.ts, where each was a CLI start.
  it('refuses --html and --save on one file, --save on a file that is not a run (kept as it was), and a --save name too long', async () => {
    const out = tempFile('same.json');
    await expectUsageError(bench('--save', out, '--html', out), /is the file --save saves the run to/);
    const notes = tempFile('notes.json');
    writeFileSync(notes, '{"my":"notes"}');
    await expectUsageError(bench('--save', notes), /not an rtbench run; refusing to overwrite/);
    expect(readFileSync(notes, 'utf8')).toBe('{"my":"notes"}');
    await expectUsageError(bench('--save', join(dirname(out), `${'x'.repeat(300)}.json`)), /^error: --save: the file name is longer than 255 bytes/);
  });

  // Moved from test/claims.test.ts, where each was a CLI start: claims' own refusals, before anything is measured.
  it('claims: an unknown suite, a suite stating no claims, one release to --across, a runtime no claim names, a --save that is no folder', async () => {
    await expectUsageError(['claims', 'no-such-suite'], /unknown suite "no-such-suite"/);
    await expectUsageError(['claims', fixture('tiny')], /states no claims/);
    await expectUsageError(['claims', fixture('claims-flip'), '--across', 'node@20'], /--across needs two or more releases/);
    await expectUsageError(['claims', fixture('claims-flip'), '--runtime', 'deno'], /no claim involves deno/);
    const file = tempFile('not-a-folder.json');
    writeFileSync(file, '{}');
    await expectUsageError(['claims', fixture('claims-flip'), '--save', file], /is not a folder/);
    await expectUsageError(['claims', fixture('claims-flip'), '--save', '/sys/rtbench-claims'], /^error: --save \/sys\/rtbench-claims: /);
  });

  // Moved from test/compare.test.ts, where each was a CLI start.
  it('shows the syntax for an unknown runtime, for a single arm, and for a suite given as a variant', async () => {
    const unknown = await commandLine(['bench', fixture('tiny'), '--compare', 'nodejs@99', 'node@24']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('unknown runtime "nodejs@99"');
    expect(unknown.stderr).toContain('Variant syntax: [name:] <runtime> [--engine-flag[=value] ...]');
    const single = await commandLine(['bench', fixture('tiny'), '--compare', 'node@24']);
    expect(single.status).toBe(2);
    expect(single.stderr).toContain('--compare needs two or more variants, the baseline first');
    // a suite after the variants is the suite, not a third variant
    const swapped = await commandLine(['bench', '--compare', 'node@24', 'json-reviver']);
    expect(swapped.status).toBe(2);
    expect(swapped.stderr).toContain('--compare needs two or more variants');
  });

  // Moved from test/brought-formats.test.ts, where it was a CLI start: found as the file is bundled, before it runs.
  it('refuses a Deno file whose deno.json maps an import to jsr: (the network): one line naming the import and the config', async () => {
    const said = await commandLine(['run', join('test', 'fixtures', 'brought', 'deno-workspace', 'bench', 'needs_network_bench.ts'), '--runtime', 'node', '--quiet']);
    expect(said.status).toBe(2);
    expect(said.stderr.trim().split('\n')).toEqual([expect.stringMatching(/"@fixture\/remote" maps to jsr:@fixture\/remote@\^1 in .*deno\.json, which deno fetches from the network; rtbench bundles offline/)]);
  });

  // Moved from test/brought-files.test.ts, where each was a CLI start: a brought file is listed in a process of the
  // runtimes named, and one that lists no case on any of them is refused in one line naming each runtime's reason.
  it('refuses a brought file that loads on no selected runtime: a grid of 10^10 configurations, a broken iterator, process.exit while loading', async () => {
    const brought = (file: string): string => join('test', 'fixtures', 'brought', file);
    const grid = await commandLine(['run', brought(join('benchmark', 'misc', 'huge-grid.js')), '--runtime', 'node', '--quiet']);
    expect(grid.status).toBe(2);
    expect(grid.stderr.trim().split('\n')).toEqual([expect.stringMatching(/does not load on any selected runtime: node: .*configurations make 1\.00e10 combinations \(1 n × 100000 a × 100000 b\); rtbench runs at most 10000: pick values with --set name=value/)]);
    // The reason is the error, not the runtime's version banner.
    const iterator = await commandLine(['run', brought('breaks-iterator.mjs'), '--runtime', 'node,bun', '--quiet']);
    expect(iterator.status).toBe(2);
    expect(iterator.stderr).toMatch(/node: the node process exited with code 1 without listing its cases \(Error: iteration is broken on purpose\); bun: the bun process exited with code 1 without listing its cases \(error: iteration is broken on purpose\)/);
    expect(iterator.stderr).not.toMatch(/Node\.js v\d|Bun v\d/);
    const exits = await commandLine(['run', brought('exit-while-loading.mjs'), '--runtime', 'node,bun', '--quiet']);
    expect(exits.status).toBe(2);
    const lines = exits.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/does not load on any selected runtime: node: .*process\.exit\(3\).*; bun: .*process\.exit\(3\)/);
  });

  // Moved from packages/cli/test/host-timed.test.ts, where it was a CLI start.
  it('refuses adaptive options on a suite timed by the host (a round is a whole start or load run)', () =>
    expectUsageError(['bench', 'cold-start', '--runtime', 'node', '--filter', 'size=10kb', '--target', '2%'], /cold-start is timed by the host.*\(use --rounds\)/));
});
