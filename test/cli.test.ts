/**
 * What the CLI saves when a case fails, and its saved runs and pages. Its
 * answers to bad input are found in the test's own process:
 * packages/cli/test/usage-errors.test.ts and usage-probed.test.ts, and so
 * is `report` on saved runs (packages/cli/test/report-saved.test.ts).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseRun } from '@rtbench/core/schema';
import { fixture, runCliAsync as runCli, tempFile, type CliResult } from './helpers/cli.ts';

/** One run serves both describes below: a failed run's table, saved run and HTML page (--html beside the saved run). */
let throwing: Promise<{ r: CliResult; out: string }> | undefined;
const throwingRun = (): Promise<{ r: CliResult; out: string }> =>
  (throwing ??= (async () => {
    const out = tempFile('run.json');
    const r = await runCli(['bench', fixture('throwing'), '--runtime', 'node@24', '--time', '5ms', '--warmup', '1ms', '--fixed-warmup', '--rounds', '1', '--save', out, '--html']);
    return { r, out };
  })());

describe.concurrent('rtbench bench: a case that throws', () => {
  it('reports it, runs the rest, saves what was measured and exits 1', async () => {
    const { r, out } = await throwingRun();
    expect(r.status).toBe(1);
    // Notes wrap at the terminal's width: read them with line breaks as spaces.
    const flat = r.stdout.replace(/\s+/g, ' ');
    expect(flat).toContain('fixture setup failed on purpose');
    expect(flat).toContain('fixture case failed on purpose');
    const run = parseRun(JSON.parse(readFileSync(out, 'utf8')), out);
    expect(run.status).toBe('failed');
    const byCase = Object.fromEntries(run.results.map((res) => [res.caseId, res]));
    expect(byCase['good before']!.status).toBe('ok');
    expect(byCase['good after']!.status).toBe('ok');
    expect(byCase['good after']!.rounds[0]!.samples.length).toBeGreaterThan(0);
    expect(byCase['throws in setup']!.failures[0]).toMatchObject({ kind: 'error', phase: 'setup' });
    expect(byCase['throws when timed']!.failures[0]).toMatchObject({ kind: 'error', phase: 'run' });
    // One set of four planned for the process: the case was kept set up, and torn down as the process closed.
    expect(byCase['throws in teardown']).toMatchObject({ status: 'failed', rounds: [] });
    // One set per process (the default): the case is not kept warm, so its teardown runs, and fails, right after its samples.
    expect(byCase['throws in teardown']!.failures[0]).toMatchObject({ kind: 'error', phase: 'teardown', message: expect.stringMatching(/fixture teardown failed on purpose/) });
    expect(byCase['unsupported here']).toMatchObject({ status: 'unsupported', failures: [{ kind: 'unsupported', message: 'fixture says this runtime lacks the API' }] });
  });
});

describe.concurrent('rtbench bench: a good run', () => {
  it('saves a valid run with raw samples, stats, environment and flags', async () => {
    const out = tempFile('run.json');
    const r = await runCli([
      'bench', fixture('tiny'), '--runtime', 'node@22 --max-semi-space-size=8 NODE_ENV=production,node@24',
      '--time', '5ms', '--warmup', '1ms', '--fixed-warmup', '--rounds', '2', '--save', out, '--json', '--quiet',
    ]);
    expect(r.status, r.stderr).toBe(0);
    const printed = parseRun((JSON.parse(r.stdout) as { run: unknown }).run, 'stdout');
    const run = parseRun(JSON.parse(readFileSync(out, 'utf8')), out);
    expect(printed.id).toBe(run.id);
    expect(run.status).toBe('complete');
    expect(run.variants.map((v) => v.id)).toEqual(['node@22 --max-semi-space-size=8 NODE_ENV=production', 'node@24']);
    expect(run.variants[0]).toMatchObject({ runtime: 'node', flags: ['--max-semi-space-size=8'], translatedFlags: { args: ['--max-semi-space-size=8'], env: { NODE_ENV: 'production' } } });
    expect(run.variants[0]!.version).toMatch(/^22\./);
    expect(run.variants[0]!.binarySha256).toMatch(/^[0-9a-f]{64}$/);
    expect(run.host.cores).toBeGreaterThan(0);
    expect(Object.keys(run.host.env).every((k) => /^(NODE_ENV|NODE_OPTIONS|UV_THREADPOOL_SIZE|BUN_JSC_.*|DENO_V8_FLAGS|TZ|LANG|CI)$/.test(k))).toBe(true);
    expect(run.results).toHaveLength(run.cases.length * 2);
    for (const res of run.results) {
      expect(res.rounds).toHaveLength(2);
      expect(res.stats!.median).toBeGreaterThan(0);
      // Two rounds are two processes: too few for an interval of the median, and none is printed.
      expect(res.stats!.processes).toBe(2);
      expect(res.stats!.ci).toBeUndefined();
    }
    expect(run.digestMismatches).toEqual([]);
    const asyncCase = run.results.find((res) => res.caseId === 'async resolve')!;
    expect(asyncCase.rounds[0]!.async).toBe(true);
  });
});

describe.concurrent('rtbench bench: adaptive rounds', () => {
  it('adds rounds while a ratio is wider than the target, stops at --max-rounds, and records both', async () => {
    const out = tempFile('run.json');
    // A ±0.01% target is out of reach: every case must stop at the round cap, and say so.
    const r = await runCli([
      'bench', fixture('tiny'), '--runtime', 'node@24,node@26', '--filter', 'n=200',
      '--time', '10ms', '--warmup', '1ms', '--fixed-warmup', '--rounds', '2', '--target', '0.01%', '--max-rounds', '3', '--save', out, '--quiet', '--format', 'csv-stats',
    ]);
    expect(r.status, r.stderr).toBe(0);
    const run = parseRun(JSON.parse(readFileSync(out, 'utf8')), out);
    expect(run.options.adaptive).toMatchObject({ target: 0.0001, minRounds: 2, maxRounds: 3 });
    expect(run.git?.commit).toMatch(/^[0-9a-f]{40}$/);
    for (const res of run.results) {
      expect(res.rounds).toHaveLength(3);
      expect(res.precision).toMatchObject({ target: 0.0001, rounds: 3, stoppedBy: 'max-rounds' });
    }
    // the candidate's ratio reached some precision, recorded as a relative half-width
    expect(run.results.find((res) => res.variantId === 'node@26')!.precision!.reached).toBeGreaterThan(0);
    // stdout is the stats CSV: a header and one row per case × variant
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^run,case,variant,status,measure,unit,direction,rounds,/);
    expect(lines).toHaveLength(1 + run.results.length);
  });
});

describe.concurrent('rtbench bench --html', () => {
  it('writes the HTML report beside the saved run and still prints the table', async () => {
    // The failed run's: a run with a failed case still gets its page (an --html path it cannot write: usage-probed.test.ts).
    const { r, out } = await throwingRun();
    const html = out.replace(/\.json$/, '.html');
    expect(r.stderr).toContain(`html report ${html}`);
    const page = readFileSync(html, 'utf8');
    expect(page).toMatch(/^<!doctype html>/i);
    const run = parseRun(JSON.parse(readFileSync(out, 'utf8')), out);
    // The page carries the run's cases (its charts are checked in Chromium by test/browser).
    for (const c of run.cases) expect(page).toContain(JSON.stringify(c.id).slice(1, -1));
    expect(r.stdout).toContain('median/op');
  });
});
