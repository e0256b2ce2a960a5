/**
 * Plain mistakes through the real CLI, one of each way the command ends:
 * a usage error is a single clear line and exit code 2 with nothing on
 * stdout; a refusal before anything runs (RTBENCH_NO_INSTALL, RTBENCH_WRK,
 * a broken suite) likewise; a binary that is not the runtime it claims to be
 * makes that variant unavailable while the rest runs (help's exit 0:
 * usage-errors.test.ts, and launcher.test.ts's --version for real). Every
 * other mistake's words are checked with the command line in the test's own
 * process (packages/cli/test/usage-errors.test.ts before any
 * runtime is asked, usage-probed.test.ts once one answered), without a CLI
 * start each. The tests run side by side (each is a CLI of its own: most of
 * its time is starting node and loading rtbench).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parseRun } from '@rtbench/core/schema';
import { fixture, repoRoot, runCliAsync as runCli, tempFile } from '../helpers/cli.ts';

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

describe.concurrent('a usage error', () => {
  it('is one line on stderr, exit 2, nothing on stdout', async () => {
    const r = await runCli(['bench', fixture('tiny'), '--runtime', 'node', '--time', '100us']);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr.split('\n').filter((l) => l.trim() && !l.startsWith('npm warn'))).toEqual([
      'error: --time 100us: "us" is not a unit rtbench takes; durations take units ms, s, m and h (e.g. 500ms, 2s, 1m, 1h), more than 0 and at most 24h',
    ]);
    expect(r.stdout).toBe('');
  });
});

describe.concurrent('RTBENCH_NO_INSTALL with a release this machine does not hold', () => {
  it('refuses in one line, exit 2, and never reaches the registry (a server there counts every connection), beside an installed runtime', async () => {
    const connections: Socket[] = [];
    const registry = createServer((socket) => {
      connections.push(socket);
      socket.destroy();
    });
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    const { port } = registry.address() as AddressInfo;
    try {
      // Beside node (installed), the whole command is refused: nothing runs, no table of the installed one alone.
      const r = await runCli(['bench', fixture('tiny'), '--runtime', 'node,node@19.0.1'], { RTBENCH_NO_INSTALL: '1', npm_config_registry: `http://127.0.0.1:${port}/` });
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: node@19\.0\.1: not installed or cached, and RTBENCH_NO_INSTALL is set, so the npm registry is not asked \(installed or cached: [\d., ]+\)$/)]);
      expect(r.stdout).toBe('');
      expect(connections).toHaveLength(0);
    } finally {
      registry.close();
    }
  });
});

describe.concurrent('RTBENCH_WRK naming no program', () => {
  it('refuses an HTTP load suite in one line before anything runs, exit 2', async () => {
    const missing = join(tempFile('no-wrk'), 'wrk');
    const r = await runCli(['bench', 'http-hello', '--runtime', 'node', '--rounds', '1'], { RTBENCH_WRK: missing });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([`error: RTBENCH_WRK=${missing}: no executable file there (unset it to use wrk from PATH)`]);
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
  // The two ways the loader words a broken suite, each with what the real loader gives it: the compiler's error, and a
  // frame of the suite's own file. A suite that throws as it loads (its message on one line, its first frame in its
  // folder) is packages/suite-loader/test/suite-errors.test.ts's; a case declared twice, or named with a line break,
  // core's words (packages/core/test/suite.test.ts), which the loader wraps as it wraps 'slash'.

  it.each([
    ['syntax', `${head}export default suite('s', () => {\n  bench('x', () => 1;\n});\n`, /does not load: .*syntax\/index\.ts:3:\d+: ERROR: Expected "\)" but found ";"/],
    ['slash', `${head}export default suite('s', () => {\n  bench('a/b', () => 1);\n});\n`, /cannot list its cases: case name "a\/b" may not contain "\/" or "\[" \(at .*slash\/index\.ts:3:\d+\)/],
  ])('%s: one line that says what and where, exit 2, nothing run', async (name, source, said) => {
    await expectUsageError(['bench', suiteWith(name, source), '--runtime', 'node', '--quiet'], said);
  });
});

// Help and --version end with exit 0: their words and exit codes are usage-errors.test.ts's (in the test's own process,
// every command's --help), and the real command's exit 0 through its launcher launcher.test.ts's --version.

describe.concurrent('colour', () => {
  const RUN = 'results/20261122-153355Z-json-reviver.json';
  const ESC = /\x1b\[/;
  // Which of FORCE_COLOR, NO_COLOR and --no-color wins, and that a pipe takes none unless told, is the rule's
  // (packages/cli/test/terminal-width.test.ts, pure); here the real command's two piped streams, each decided by it.
  it('FORCE_COLOR colours a piped stdout and stderr alike; --no-color wins over it on both', async () => {
    const [forced, plain] = await Promise.all([
      runCli(['report', RUN, '--fail-on-regression', '50'], { NO_COLOR: '', FORCE_COLOR: '1' }),
      runCli(['report', RUN, '--fail-on-regression', '50', '--no-color'], { NO_COLOR: '', FORCE_COLOR: '1' }),
    ]);
    for (const r of [forced, plain]) expect(r.status, r.stderr).toBe(0);
    expect(forced.stdout).toMatch(ESC);
    expect(forced.stderr).toMatch(ESC);
    expect(plain.stdout).not.toMatch(ESC);
    expect(plain.stderr).not.toMatch(ESC);
  });
});
