/**
 * A Worker brought as it is (`rtbench run`): a wrangler project with
 * nodejs_compat, vars, define, a React import and static assets served on
 * all four runtimes with the same work proven, its notes said first (its
 * page, a redirect and the asset as one mix, a server a runtime: that a
 * line its requests' cases would each say is said once is
 * packages/measurers/test/request-warnings.test.ts's, pure); a plain
 * module's console lines counted, not printed in the table (a binding
 * rtbench cannot stand in for and a request that does not parse are refused
 * in the test's own process: packages/cli/test/refused-inputs.test.ts); a
 * legacy node_compat project whose module ends `export default app` served
 * on node and workerd. Smoke runs (--fixed-warmup): one round of 15
 * requests a process, not served until steady, since no figure is read.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { requestsOf } from '../packages/measurer-records/src/index.ts';
import { runCliAsync, tempFile, type CliResult } from './helpers/cli.ts';

const WORKERS = join('test', 'fixtures', 'workers');
const RUNTIMES = ['node', 'deno', 'bun', 'workerd'];

async function run(args: string[]): Promise<{ r: CliResult; out: string; record?: RunRecord }> {
  const out = tempFile('run.json');
  const r = await runCliAsync(['run', ...args, '--save', out, '--no-color', '--filter', 'cpu=js thread', '--fixed-warmup']);
  return { r, out, ...(existsSync(out) ? { record: parseRun(JSON.parse(readFileSync(out, 'utf8')), out) } : {}) };
}

describe('a brought Worker', () => {
  let project: Awaited<ReturnType<typeof run>>;
  let clock: Awaited<ReturnType<typeof run>>;
  let legacy: Awaited<ReturnType<typeof run>>;
  beforeAll(async () => {
    [project, clock, legacy] = await Promise.all([
      run([join(WORKERS, 'wrangler-react'), '--runtime', RUNTIMES.join(','), '--rounds', '1', '--requests', join(WORKERS, 'react-page-requests.json')]),
      run([join(WORKERS, 'clock', 'worker.js'), '--runtime', 'node', '--rounds', '1', '--request', 'GET /?n=50', '--normalize', 'rendered at [^<]+']),
      run([join(WORKERS, 'legacy-node-compat'), '--runtime', 'node,workerd', '--rounds', '1']),
    ]);
  });

  it('a wrangler project with nodejs_compat, vars, define, React and static assets runs on four runtimes, the same work on each', () => {
    expect(project.r.status, project.r.stderr).toBe(0);
    const run = project.record!;
    expect(run.suite).toBe('react-page');
    expect(run.digestMismatches).toEqual([]);
    for (const variant of RUNTIMES) expect(run.results.find((x) => x.variantId === variant)!.rounds.length, variant).toBe(1);
    // A smoke run's round serves its small count whole, recorded as smoke (request-smoke.test.ts: its sizes).
    expect(run.options.measurerFields).toEqual({ smoke: true });
    for (const result of run.results) expect(result.rounds[0]!.samples, result.caseId).toHaveLength(15);
    // Said before the run: the build not run, the compatibility the Workers runtime gets, the React build.
    expect(project.r.stderr).toContain("note: wrangler.toml's build command (npm run build) is not run");
    expect(project.r.stderr).toContain("note: the Workers runtime serves it with wrangler.toml's compatibility date 2025-09-01 and flags nodejs_compat");
    expect(project.r.stderr).toContain('! react-page: react, react-dom read process.env.NODE_ENV, written in per arm: node "production"');
    expect(project.r.stderr.split('read process.env.NODE_ENV').length - 1).toBe(1);
    // The time it should take, reckoned from its fresh servers (packages/cli/test/run-heading.test.ts: the reckoning).
    expect(project.r.stderr.replace(/\s+/g, ' ')).toContain("expected: at least 0:02 and the handler's own time (4 fresh servers: 1 request case × 4 arms × 1 round, each serving 15 requests)");
    // The asset is answered in front of the Worker on every runtime, as wrangler dev answers it.
    expect(project.r.stderr).toContain("note: wrangler.toml's static assets (1 file, 31 bytes from test/fixtures/workers/wrangler-react/public) are served in front of the Worker on every runtime");
    for (const variant of RUNTIMES) {
      const round = run.results.find((x) => x.variantId === variant)!.rounds[0]!;
      // Every request of the mix answered (the mix's draw is the case's, the same on every runtime: each kind drawn).
      expect(requestsOf(round)!.outcomes.ok, variant).toBe(round.samples.length);
      const statusOf = Object.fromEntries(requestsOf(round)!.answers!.map((a) => [a.request, a.status]));
      // A redirect to another address is the handler's answer, never followed: 302; the page and the asset 200.
      expect(statusOf, variant).toEqual({ 'GET /': 200, 'GET /moved': 302, 'GET /robots.txt': 200 });
    }
  });

  it('a legacy node_compat project whose module ends `export default app` runs on the Workers runtime too, its bare zlib import served as node:zlib', () => {
    expect(legacy.r.status, legacy.r.stderr).toBe(0);
    expect(legacy.r.stderr).toContain("note: wrangler.toml's legacy node_compat = true is read as the nodejs_compat flag");
    expect(legacy.record!.digestMismatches).toEqual([]);
    for (const variant of ['node', 'workerd']) expect(legacy.record!.results.find((x) => x.variantId === variant)!.rounds.length, variant).toBe(1);
  });

  it("a handler's console lines are counted per round and kept out of the table", () => {
    expect(clock.r.status, clock.r.stderr).toBe(0);
    const round = clock.record!.results.find((x) => x.variantId === 'node')!.rounds[0]!;
    expect(requestsOf(round)!.consoleLines).toBe(round.samples.length);
    expect(clock.r.stdout).not.toContain('served /');
    expect(clock.r.stdout + clock.r.stderr).toContain('the handler wrote 1 console line per request');
    // --normalize: the time is replaced before the answers are learned, so nothing of it is left to mask.
    expect(clock.r.stderr).toContain("note: each response's matches of /rendered at [^<]+/ are replaced by one mark before it is compared");
    expect(requestsOf(round)!.answers!.map((a) => [a.spans, a.segments.join('').includes('<p>⟨normalized⟩</p>')])).toEqual([[0, true]]);
  });
});
