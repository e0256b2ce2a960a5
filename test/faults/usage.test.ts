/**
 * Plain mistakes through the real CLI: every one is a single clear line and
 * exit code 2, with nothing run, nothing saved and no temporary file left;
 * a binary that is not the runtime it claims to be makes that variant
 * unavailable while the rest runs. The tests run side by side (each is a
 * CLI of its own: most of its time is starting node and loading rtbench).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parseRun } from '@rtbench/core/schema';
import { fixture, repoRoot, runCliAsync as runCli, tempFile } from '../helpers/cli.ts';
import { syntheticRun, writeRun } from '../compare-synthetic.ts';

async function expectUsageError(args: string[], message: RegExp): Promise<void> {
  const r = await runCli(args);
  expect(r.status, `${args.join(' ')}\n${r.stderr}`).toBe(2);
  // One message: a single "error:" line (a list of what exists may follow it), no stack trace.
  const lines = r.stderr.split('\n').filter((l) => l.trim() && !l.startsWith('npm warn'));
  expect(lines.filter((l) => l.startsWith('error: ')), r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  expect(lines[0]).toMatch(message);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expectOnePrefixPerLine(r.stderr);
}

/** No line says the same thing twice before its message ("error: node@27: node@27: …"). */
function expectOnePrefixPerLine(stderr: string): void {
  for (const line of stderr.split('\n')) expect(line).not.toMatch(/^(?:error: )?([^:]+): (?:error: )?\1[: ]/);
}

describe.concurrent('bad options', () => {
  const bench = (...extra: string[]): string[] => ['bench', fixture('tiny'), '--runtime', 'node', ...extra];

  it.each([
    [['--filter', '2000'], /--filter "2000" matches no case/],
    [['--filter', ''], /--filter needs a value/],
    [['--time', '-5ms'], /--time -5ms: .*cannot be negative/],
    [['--time', '0ms'], /--time 0ms: must be more than 0/],
    [['--time', '99999h'], /--time 99999h: at most 24h/],
    [['--time', '100us'], /^error: --time 100us: "us" is not a unit rtbench takes; durations take units ms, s, m and h \(e\.g\. 500ms, 2s, 1m, 1h\), more than 0 and at most 24h$/],
    [['--time', '1ns'], /^error: --time 1ns: "ns" is not a unit rtbench takes; durations take units ms, s, m and h/],
    [['--time', '100000m'], /at most 24h/],
    [['--rounds', '0'], /--rounds "0": expected a whole number from 1 to 10000/],
    [['--rounds', '1e9'], /--rounds "1e9"/],
    [['--seed', '-1'], /--seed "-1"/],
    [['--warmup', '500ms', '--timeout', '100ms'], /--timeout 100ms is not longer than/],
    [['--time', '1s', '--time', '2s'], /--time is given twice/],
    [['--no-such-option'], /Unknown option/],
    [['--round', '3'], /Unknown option `--round` \(did you mean --rounds\?\)/],
    [['--quiet=no'], /--quiet takes no value/],
    // Repeated list options are read, every one of them.
    [['--runtime', 'nodejs@99'], /unknown runtime "nodejs@99"/],
    [['--runtime', 'node', '--runtime', 'nodejs@98'], /unknown runtime "nodejs@98"/],
    [['--filter', 'nothing', '--filter', '2000'], /--filter "nothing,2000" matches no case/],
    [['--filter', '/(a+)+$/'], /--filter "\/\(a\+\)\+\$\/" matches no case/],
    [['--filter', '/(a)\\1/'], /--filter \/\(a\)\\1\/: .*linear time/],
  ])('bench %j', (extra, message) => expectUsageError(bench(...extra), message));

  it('rtbench run says what is wrong with the path: no such file, a directory, not a benchmark file', async () => {
    const dir = dirname(tempFile('x'));
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'not a benchmark\n');
    await expectUsageError(['run', join(dir, 'missing.mjs')], /^error: .*missing\.mjs: no such file$/);
    await expectUsageError(['run', dir], /^error: .* is a directory with no wrangler.json, wrangler.jsonc or wrangler.toml: name a benchmark file or a Worker in it \(for a suite folder: rtbench bench .*\)$/);
    await expectUsageError(['run', text], /^error: .*notes\.txt is not a benchmark file or a Worker rtbench can bring/);
  });

  it('gives each variant that cannot run its own error line, each named once', async () => {
    const r = await runCli(['bench', fixture('tiny'), '--runtime', 'node@27,node=/no/such/node,deno=/no/such/deno']);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('error: '))).toEqual([
      expect.stringMatching(/^error: node@27: rtbench installs node@20, .*; for another build use node=\/path\/to\/node$/),
      'error: node=/no/such/node: /no/such/node does not exist',
      'error: deno=/no/such/deno: /no/such/deno does not exist',
    ]);
    expectOnePrefixPerLine(r.stderr);
  });

  it('reads --compare up to the suite after it, --html without a file, and options before the command', async () => {
    await expectUsageError(['bench', '--compare', 'node@24', 'nodejs@99', fixture('tiny')], /unknown runtime "nodejs@99"/);
    await expectUsageError(['bench', '--html', fixture('tiny'), '--runtime', 'nodejs@99'], /unknown runtime "nodejs@99"/);
    await expectUsageError(['--runtime', 'nodejs@99', 'bench', fixture('tiny')], /unknown runtime "nodejs@99"/);
    await expectUsageError(['bench'], /^error: rtbench bench <suite>: name a suite/);
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

  it('tries -o, --html and --save before anything runs, so root is refused too: a file where a directory is needed, a place that takes no files', async () => {
    // Places no user can write, root included (Linux): sysfs refuses new files, procfs has none to make.
    await Promise.all([
      expectUsageError(bench('-o', '/sys/x.md'), /--output \/sys\/x\.md: no file can be created in \/sys \(permission denied\)/),
      expectUsageError(bench('--html', '/sys/x.html'), /--html \/sys\/x\.html: no file can be created in \/sys/),
      expectUsageError(bench('-o', '/proc/version'), /no file can be created in \/proc \(it takes no new files/),
      expectUsageError(bench('--save', '/etc/passwd/x.json'), /\/etc\/passwd is a file, not a directory/),
    ]);
    expect(readdirSync('/tmp').filter((f) => f.startsWith('.rtbench-probe-'))).toEqual([]);
  });

  it('reads a variant with quoted values', async () => {
    await expectUsageError(['bench', fixture('tiny'), '--runtime', 'node "FOO=a'], /quote is not closed/);
  });
});

describe('RTBENCH_NO_INSTALL with a release this machine does not hold', () => {
  it('refuses in one line, exit 2, and never reaches the registry (a server there counts every connection), beside an installed runtime too', async () => {
    const connections: Socket[] = [];
    const registry = createServer((socket) => {
      connections.push(socket);
      socket.destroy();
    });
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    const { port } = registry.address() as AddressInfo;
    try {
      // Beside node (installed), the whole command is refused as well: nothing runs, no table of the installed one alone.
      for (const runtimes of ['node@19.0.1', 'node,node@19.0.1']) {
        const r = await runCli(['bench', fixture('tiny'), '--runtime', runtimes], { RTBENCH_NO_INSTALL: '1', npm_config_registry: `http://127.0.0.1:${port}/` });
        expect(r.status, r.stderr).toBe(2);
        expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: node@19\.0\.1: not installed or cached, and RTBENCH_NO_INSTALL is set, so the npm registry is not asked \(installed or cached: [\d., ]+\)$/)]);
        expect(r.stdout).toBe('');
      }
      expect(connections).toHaveLength(0);
    } finally {
      registry.close();
    }
  });
});

describe('a message that goes on with a list', () => {
  it('prints the list under its first line, a line each, the first ten and a count, never a literal \\n', async () => {
    const r = await runCli(['bench', 'json-reviver', '--runtime', 'node', '--filter', 'no such case']);
    expect(r.status, r.stderr).toBe(2);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe('error: --filter "no such case" matches no case. Cases:');
    expect(lines.slice(1, 11).every((l) => /^ {4}\S/.test(l))).toBe(true);
    expect(lines.slice(11)).toEqual([expect.stringMatching(/^ {2}… and \d+ more$/)]);
    expect(r.stderr).not.toContain('\\n');
  });
});

describe('RTBENCH_WRK naming no program', () => {
  it('refuses an HTTP load suite in one line before anything runs, exit 2', async () => {
    const missing = join(tempFile('no-wrk'), 'wrk');
    const r = await runCli(['bench', 'http-hello', '--runtime', 'node', '--rounds', '1'], { RTBENCH_WRK: missing });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([`error: RTBENCH_WRK=${missing}: no executable file there (unset it to use wrk from PATH)`]);
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
    // Side by side: each is a CLI of its own.
    const corruptReads = [['report', corrupt], ['compare', corrupt, dir], ['merge', corrupt, '--save', tempFile('m.json')]];
    await Promise.all([
      ...corruptReads.map(async (args) => {
        const r = await runCli(args);
        expect(r.status, r.stderr).toBe(2);
        expect(r.stderr).toMatch(/^error: .* is not valid JSON.*␛\]0;pwned/m);
        expect(r.stderr).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
      }),
      expectUsageError(['report', dir], /is a directory, not a run file/),
      expectUsageError(['compare', dir, corrupt], /is a directory, not a run file/),
    ]);
  });
});

describe.concurrent('a binary that is not the runtime it names', () => {
  it('makes that variant unavailable, on every runtime, and the rest of the run goes on', async () => {
    const out = tempFile('not-a-runtime.json');
    const fakes = ['node', 'deno', 'bun', 'workerd'].map((r) => `${r}=/bin/true`);
    const r = await runCli(['bench', fixture('tiny'), '--runtime', [...fakes, 'node'].join(','), '--rounds', '1', '--filter', 'async', '--time', '10ms', '--warmup', '5ms', '--fixed-warmup', '--save', out, '--quiet']);
    expect(r.status, r.stderr).toBe(1);
    const run = parseRun(JSON.parse(readFileSync(out, 'utf8')), out);
    expect(run.variants.filter((v) => v.unavailable).map((v) => v.id)).toEqual(fakes);
    for (const v of run.variants.filter((v) => v.unavailable)) expect(v.unavailable).toMatch(/is not (node|deno|bun|workerd)/);
    expect(run.results.find((x) => x.variantId === 'node')).toMatchObject({ status: 'ok' });
  });
});

describe.concurrent('a broken native suite', () => {
  // Written inside the repository (its cache folder), where `@rtbench/core` resolves as it does for bench/.
  const dir = join(repoRoot, '.rtbench-cache', 'test-broken-suites');
  const suiteWith = (name: string, source: string): string => {
    mkdirSync(join(dir, name), { recursive: true });
    writeFileSync(join(dir, name, 'index.ts'), source);
    return join(dir, name);
  };
  const head = "import { bench, suite } from '@rtbench/core';\n";

  it.each([
    ['syntax', `${head}export default suite('s', () => {\n  bench('x', () => 1;\n});\n`, /does not load: .*syntax\/index\.ts:3:\d+: ERROR: Expected "\)" but found ";"/],
    ['throws', `${head}throw new Error('no data file');\n`, /does not load: no data file \(at .*throws\/index\.ts:2:\d+\)/],
    ['slash', `${head}export default suite('s', () => {\n  bench('a/b', () => 1);\n});\n`, /cannot list its cases: case name "a\/b" may not contain "\/" or "\[" \(at .*slash\/index\.ts:3:\d+\)/],
    ['twice', `${head}export default suite('s', () => {\n  bench('x', () => 1);\n  bench('x', () => 2);\n});\n`, /cannot list its cases: suite "s" declares the case "x" twice/],
    ['multiline', `${head}throw new Error('no data file\\nlooked in ./data');\n`, /does not load: no data file\\nlooked in \.\/data \(at .*multiline\/index\.ts:2:\d+\)/],
    ['newline', `${head}export default suite('s', () => {\n  bench('a\\n/b', () => 1);\n});\n`, /cannot list its cases: case name "a\\n\/b" may not contain "\/" or "\[" \(at .*newline\/index\.ts:3:\d+\)/],
  ])('%s: one line that says what and where, exit 2, nothing run', async (name, source, said) => {
    await expectUsageError(['bench', suiteWith(name, source), '--runtime', 'node', '--quiet'], said);
  });
});

describe.concurrent('help and version', () => {
  it.each(['bench', 'run', 'compare', 'merge', 'report', 'history', 'runtimes', 'suites'])('%s --help prints its usage and exits 0', async (command) => {
    const r = await runCli([command, '--help']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Usage:/);
    if (command === 'run') expect(r.stdout).toMatch(/--runtime <list>/);
  });

  it('--version prints the package version', async () => {
    const r = await runCli(['--version']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^rtbench\/\d+\.\d+\.\d+/);
  });
});

describe.concurrent('colour', () => {
  const RUN = 'results/20261122-153355Z-json-reviver.json';
  const ESC = /\x1b\[/;
  it('FORCE_COLOR colours a piped stdout and stderr alike; --no-color and NO_COLOR win over it', async () => {
    const forced = await runCli(['report', RUN, '--fail-on-regression', '50'], { NO_COLOR: '', FORCE_COLOR: '1' });
    expect(forced.stdout).toMatch(ESC);
    expect(forced.stderr).toMatch(ESC);
    for (const [args, env] of [
      [['--no-color'], { NO_COLOR: '', FORCE_COLOR: '1' }],
      [[], { NO_COLOR: '1', FORCE_COLOR: '1' }],
      [[], { NO_COLOR: '', FORCE_COLOR: '' }],
    ] as const) {
      const r = await runCli(['report', RUN, '--fail-on-regression', '50', ...args], { ...env });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).not.toMatch(ESC);
      expect(r.stderr).not.toMatch(ESC);
    }
  });
});
