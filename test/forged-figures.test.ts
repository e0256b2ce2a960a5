/**
 * A brought file whose cases try, one route each, to shrink their own
 * figures 100x before the host reads them (test/fixtures/brought/forges-its-figures.mjs):
 * replaced write paths, prototypes the harness might write through, replaced
 * clocks. On every runtime each case's figure is either the real one (the
 * route does not reach the harness) or refused by the host's clock; none is
 * printed shrunk. Each case gets processes of its own (lockstep-per-case), so
 * a route installed by one case cannot reach another's figures.
 */
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { fixture, repoRoot, runCliAsync, tempFile, type CliResult } from './helpers/cli.ts';

const RUNTIMES = ['node', 'deno', 'bun', 'workerd'] as const;
const ROUTES = ['fs.writeSync', 'process.stdout.write', 'Deno.stdout.writeSync', 'TextEncoder.prototype.encode', 'WritableStreamDefaultWriter.prototype.write', 'JSON.stringify', 'performance.now', 'process.hrtime', 'Bun.nanoseconds', 'Number'];
/** The routes shrink by 100; the same work measured honestly is within a few times the controls' figure. */
const SHRUNK_BELOW = 1 / 10;
/** The same honest work in three processes of its own per runtime (the fixture's controls). */
const CONTROLS = ['control', 'control 2', 'control 3'];
const runtimeOf = (r: RunRecord['results'][number]): string => r.variantId.split(' ')[0]!;
/**
 * The honest figure a route's is held against: the fastest control's. One 10 ms process on a loaded machine once read
 * ten times its figure alone (a 0.08 ratio for a route that does not reach node's harness); three must all be slow.
 */
const honestMedian = (results: RunRecord['results'], rt: string): number =>
  Math.min(...results.filter((r) => CONTROLS.includes(r.caseId) && runtimeOf(r) === rt).map((r) => r.stats!.median));

/** The preloaded forger's run (the last describe), started with the file's others: side by side, not after them. */
let preloaded: Promise<{ r: CliResult; out: string }> | undefined;
const preloadedRun = (): Promise<{ r: CliResult; out: string }> =>
  (preloaded ??= (async () => {
    const preload = join(repoRoot, 'test', 'fixtures', 'brought', 'forging-preload.cjs');
    const out = tempFile('forging-preload.json');
    const r = await runCliAsync(['bench', fixture('tiny'), '--runtime', `node NODE_OPTIONS=--require=${preload}`, '--filter', 'n=200', '--rounds', '2', '--time', '10ms', '--warmup', '10ms', '--fixed-warmup', '--save', out, '--quiet']);
    return { r, out };
  })());

describe('a brought file whose cases forge their own figures, on all four runtimes', () => {
  let cli: CliResult[];
  let results: RunRecord['results'];
  beforeAll(async () => {
    const file = join('test', 'fixtures', 'brought', 'forges-its-figures.mjs');
    const runs = [
      // Each process warmed a fixed 50 ms: a forged figure reads a hundredth of the control's and an honest one within
      // a few times of it, far from the tenth asserted. After 10 ms node ran some processes' calls ten times slower
      // than others (not yet optimized), which put honest figures at a tenth of the controls'
      // (docs/measurements/lockstep.md); the watched warmups of their 39 processes were half the file's CPU.
      { runtimes: RUNTIMES.filter((rt) => rt !== 'workerd'), warmup: ['--time', '10ms', '--warmup', '50ms', '--fixed-warmup'] },
      // workerd's clock reads whole milliseconds: a fixed warmup's batches, sized while a loaded machine paused the
      // process, read 0 there (a 0 median, at load 20). Its watched warmup grows them until steady.
      { runtimes: ['workerd'], warmup: ['--time', '40ms', '--warmup', '10ms'] },
    ].map(({ runtimes, warmup }) => ({ out: tempFile('forged-figures.json'), runtimes, warmup }));
    void preloadedRun();
    cli = await Promise.all(runs.map(({ out, runtimes, warmup }) => runCliAsync(['run', file, '--runtime', runtimes.join(','), '--rounds', '1', '--schedule', 'lockstep-per-case', ...warmup, '--save', out, '--quiet'])));
    results = runs.flatMap(({ out }) => parseRun(JSON.parse(readFileSync(out, 'utf8')), out).results);
  });

  it('measures the controls on every runtime', () => {
    for (const rt of RUNTIMES) {
      const controls = results.filter((r) => CONTROLS.includes(r.caseId) && runtimeOf(r) === rt);
      expect(controls.map((c) => c.status), `${rt}: ${cli.map((c) => c.stderr.slice(-800)).join('\n')}`).toEqual(CONTROLS.map(() => 'ok'));
    }
  });

  it.each(ROUTES)('prints no figure shrunk through %s: the real one, or the host says why it refused it', (route) => {
    for (const rt of RUNTIMES) {
      const forged = results.find((r) => r.caseId === route && runtimeOf(r) === rt);
      expect(forged, `${route} on ${rt}`).toBeDefined();
      if (forged!.status === 'ok') {
        expect(forged!.stats!.median / honestMedian(results, rt), `${route} on ${rt}`).toBeGreaterThan(SHRUNK_BELOW);
      } else {
        // Refused: by the host's clock, in its own words; never a crash of the route's making.
        const said = forged!.failures.map((f) => f.message).join('\n');
        expect(said, `${route} on ${rt}`).toMatch(/the host waited|host's (clock|advanced)|host saw/);
      }
    }
  });
});

describe('a process whose every figure and span is shrunk before the harness writes them', () => {
  it('is refused by the CPU time the kernel counted for it, in one line per case, and nothing is printed shrunk', async () => {
    const { r, out } = await preloadedRun();
    expect(r.status, r.stderr).toBe(1);
    const saved = parseRun(JSON.parse(readFileSync(out, 'utf8')), out);
    expect(saved.results.map((x) => x.status)).toEqual(['failed']);
    const said = saved.results[0]!.failures.map((f) => f.message);
    expect(said.length).toBeGreaterThan(0);
    for (const message of said) expect(message).toMatch(/^node: its exchanges, as the process timed them, account for [\d.]+% of the CPU time the main thread of its process ran over the set \([\d.]+ ms, read by the host from the kernel; (a tenth|[\d.]+% at least, as its main thread also waited [\d.]+ ms for a core in its exchanges)( at least)?(, its median exchange [\d.]+% of what the thread ran in it( \([\d.]+% asked\))?)?(, its best span [\d.]+% of the host's wait for it \(a fiftieth asked\))?\): the figures are smaller than the host's clock allows/);
  });
});
