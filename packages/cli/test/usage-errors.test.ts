/**
 * Plain mistakes the command line refuses before it asks any runtime: every
 * one is a single clear line and exit code 2, with nothing run, nothing saved
 * and no temporary file left. The command line runs in the test's own process
 * (command-run.ts); test/faults/usage.test.ts runs a few as the real command,
 * which proves such a line reaches stderr with that exit code, and
 * usage-probed.test.ts has the mistakes found once a runtime has answered.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, tempFile } from '../../../test/helpers/cli.ts';
import { syntheticRun, writeRun } from '../../../test/compare-synthetic.ts';
import { COMMANDS } from '../src/command-list.ts';
import { commandLine, expectOnePrefixPerLine, expectUsageError } from './usage-lines.ts';

describe.concurrent('bad options', () => {
  const bench = (...extra: string[]): string[] => ['bench', fixture('tiny'), '--runtime', 'node', ...extra];

  it.each([
    [['--filter', ''], /--filter needs a value/],
    [['--time', '-5ms'], /--time -5ms: .*cannot be negative/],
    [['--time', '0ms'], /--time 0ms: must be more than 0/],
    [['--time', '99999h'], /--time 99999h: at most 24h/],
    [['--time', '100us'], /^error: --time 100us: "us" is not a unit rtbench takes; durations take units ms, s, m and h \(e\.g\. 500ms, 2s, 1m, 1h\), more than 0 and at most 24h$/],
    [['--time', '1ns'], /^error: --time 1ns: "ns" is not a unit rtbench takes; durations take units ms, s, m and h/],
    [['--time', '3'], /--time 3: write a duration with its unit/],
    [['--time', '100000m'], /at most 24h/],
    [['--rounds', '0'], /--rounds "0": expected a whole number from 1 to 10000/],
    [['--rounds', '1e9'], /--rounds "1e9"/],
    [['--seed', '-1'], /--seed "-1"/],
    [['--warmup', '500ms', '--timeout', '100ms'], /--timeout 100ms is not longer than/],
    [['--time', '1s', '--time', '2s'], /--time is given twice/],
    [['--no-such-option'], /Unknown option/],
    [['--round', '3'], /Unknown option `--round` \(did you mean --rounds\?\)/],
    [['--quiet=no'], /--quiet takes no value/],
  ])('bench %j', (extra, message) => expectUsageError(bench(...extra), message));

  it('refuses --self-check with --compare, whose arms share their company, in one line', () =>
    expectUsageError(['bench', fixture('tiny'), '--compare', 'node', 'node@24', '--self-check'], /^error: --self-check checks a table's cells against their cases alone; a comparison pairs arms that share their company: run it without --compare$/));

  it('rtbench run says what is wrong with the path: no such file, a directory, a framework app, not a benchmark file', async () => {
    const dir = dirname(tempFile('x'));
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'not a benchmark\n');
    await expectUsageError(['run', join(dir, 'missing.mjs')], /^error: .*missing\.mjs: no such file$/);
    await expectUsageError(['run', dir], /^error: .* is a directory with no wrangler.json, wrangler.jsonc or wrangler.toml, and no framework app \(a package\.json naming next \(Next\.js\), @sveltejs\/kit \(SvelteKit\), .*\): name a benchmark file or a Worker in it \(for a suite folder: rtbench bench .*\)$/);
    // A framework app's folder is recognised and said in one line, even beside a wrangler config; nothing is built or run.
    const app = join(dir, 'svelte-app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ devDependencies: { '@sveltejs/kit': '^2.20.0', '@sveltejs/adapter-cloudflare': '^7.0.0' } }));
    writeFileSync(join(app, 'wrangler.jsonc'), '{ "main": ".svelte-kit/cloudflare/_worker.js" }');
    await expectUsageError(['run', app], /^error: .*svelte-app is a SvelteKit app \(@sveltejs\/kit \^2\.20\.0 \(declared, not installed\), wrangler\.jsonc\): built with vite build, once per adapter, .*; its dependencies are not installed \(no node_modules\/@sveltejs\/kit\): install them with its package manager first$/);
    await expectUsageError(['run', text], /^error: .*notes\.txt is not a benchmark file or a Worker rtbench can bring/);
  });

  it('gives each variant that cannot run its own error line, each named once', async () => {
    const said = await commandLine(['bench', fixture('tiny'), '--runtime', 'node@27,node=/no/such/node,deno=/no/such/deno']);
    expect(said.status, said.stderr).toBe(2);
    expect(said.stderr.split('\n').filter((l) => l.startsWith('error: '))).toEqual([
      expect.stringMatching(/^error: node@27: rtbench installs node@20, .*; for another build use node=\/path\/to\/node$/),
      'error: node=/no/such/node: /no/such/node does not exist',
      'error: deno=/no/such/deno: /no/such/deno does not exist',
    ]);
    expectOnePrefixPerLine(said.stderr);
  });

  it('asks for a suite, names the suites when it is unknown, and refuses an argument too many', async () => {
    await expectUsageError(['bench'], /^error: rtbench bench <suite\.\.\.>: name a suite/);
    await expectUsageError(['bench', 'no-such-suite'], /unknown suite "no-such-suite"\. Suites: .*json-reviver/);
    await expectUsageError(['report', 'a.json', 'b.json'], /rtbench report \[run\]: unexpected argument "b\.json"/);
  });

  it('checks --save before anything runs: a directory, a missing parent, an unwritable place; no temporary file is left', async () => {
    const dir = dirname(tempFile('x'));
    await expectUsageError(bench('--save', dir), /is a directory/);
    await expectUsageError(bench('--save', join(dir, 'missing', 'run.json')), /does not exist/);
    const locked = join(dir, 'locked');
    mkdirSync(locked, { mode: 0o500 });
    if (process.getuid?.() !== 0) await expectUsageError(bench('--save', join(locked, 'run.json')), /no file can be created in .*locked \(permission denied\)/);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(readdirSync(locked)).toEqual([]);
  });

  it('tries -o and --save before anything runs, so root is refused too: a file where a directory is needed, a place that takes no files', async () => {
    // Places no user can write, root included (Linux): sysfs refuses new files, procfs has none to make (--html: usage-probed.test.ts).
    await expectUsageError(bench('-o', '/sys/x.md'), /--output \/sys\/x\.md: no file can be created in \/sys \(permission denied\)/);
    await expectUsageError(bench('-o', '/proc/version'), /no file can be created in \/proc \(it takes no new files/);
    await expectUsageError(bench('--save', '/etc/passwd/x.json'), /\/etc\/passwd is a file, not a directory/);
    expect(readdirSync('/tmp').filter((f) => f.startsWith('.rtbench-probe-'))).toEqual([]);
  });

  it('reads a variant with quoted values', async () => {
    await expectUsageError(['bench', fixture('tiny'), '--runtime', 'node "FOO=a'], /quote is not closed/);
  });

});

describe.concurrent('bad saved runs', () => {
  it('refuses a run that validates but would break the readers, in one line, for report and compare', async () => {
    const run = syntheticRun({ cases: [{ id: 'a', ns: 100 }], arms: [{ id: 'node@24', factor: 1 }, { id: 'node@26', factor: 1 }], rounds: 2, samplesPerRound: 2, mode: 'compare' }) as unknown as Record<string, any>;
    run.results[0].rounds[0].samples = [];
    const path = writeRun(tempFile('empty-samples.json'), run);
    await expectUsageError(['report', path], /without samples/);
    await expectUsageError(['compare', path], /without samples/);
    const other = writeRun(tempFile('unknown-variant.json'), { ...run, variants: [run.variants[0]] });
    // Beside a run that reads (two names of one file are refused before either is read).
    await expectUsageError(['compare', other, writeRun(tempFile('two-variants.json'), run)], /names a variant the run does not list/);
    writeFileSync(path, '{"schema":"rtbench.run","schemaVersion":1');
    await expectUsageError(['report', path], /not valid JSON/);
  });

  it('quotes a corrupt file\'s bytes as escapes, never raw, and calls a directory a directory', async () => {
    const corrupt = tempFile('corrupt.json');
    writeFileSync(corrupt, 'x\x1b]0;pwned\x07\x1b[2J\x00 fake\nline');
    const dir = dirname(tempFile('a-directory/x'));
    mkdirSync(dir, { recursive: true });
    for (const args of [['report', corrupt], ['compare', corrupt, dir], ['merge', corrupt, '--save', tempFile('m.json')]]) {
      const said = await commandLine(args);
      expect(said.status, said.stderr).toBe(2);
      expect(said.stderr).toMatch(/^error: .* is not valid JSON.*␛\]0;pwned/m);
      expect(said.stderr).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    }
    await expectUsageError(['report', dir], /is a directory, not a run file/);
    await expectUsageError(['compare', dir, corrupt], /is a directory, not a run file/);
  });
});

describe.concurrent('help and version', () => {
  it.each(COMMANDS.map((c) => c.name))('%s --help prints its usage and exits 0', async (command) => {
    const said = await commandLine([command, '--help']);
    expect(said.status, said.stderr).toBe(0);
    expect(said.stdout).toMatch(/Usage:/);
    if (command === 'run') expect(said.stdout).toMatch(/--runtime <list>/);
  });

  it('--version prints the package version; an unknown command is refused in one line', async () => {
    const said = await commandLine(['--version']);
    expect(said.status).toBe(0);
    expect(said.stdout).toMatch(/^rtbench\/\d+\.\d+\.\d+/);
    await expectUsageError(['benhc'], /^error: unknown command "benhc"\. Commands: bench, /);
  });
});
