/**
 * Request-shaped cases through the real CLI, small (41 requests a process):
 * a planted tail on all four runtimes is found where it was planted, the
 * JavaScript thread and all threads are reported apart, a handler that
 * throws or answers no Response is counted, not lost (one that never
 * answers: request-faults.test.ts), and
 * --concurrency really puts more than one request in the server at once;
 * --metrics memory reads each server's resident memory; --profile takes
 * each server's CPU profile over its steady requests (a smoke run's: a
 * short stretch by count).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { parseProfileManifest, PROFILE_MANIFEST_FILE, type CallTreeNode } from '@rtbench/core/profile-manifest';
import { requestsOf } from '../../measurer-records/src/index.ts';
import { runCliAsync, tempFile } from '../../../test/helpers/cli.ts';

const SUITE = join('test', 'fixtures', 'request-cases');

async function bench(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string; run: RunRecord; out: string }> {
  const out = tempFile('run.json');
  // Smoke runs (--fixed-warmup): the suite's own count a round, 5 requests to the empty handler; no figure is read but the planted ones.
  // --explain: the tables behind the brief lines, which these runs read.
  const r = await runCliAsync(['bench', SUITE, ...args, '--fixed-warmup', '--save', out, '--quiet', '--no-color', '--explain']);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, run: parseRun(JSON.parse(readFileSync(out, 'utf8')), out), out };
}

const result = (run: RunRecord, caseId: string, variant: string) => run.results.find((r) => r.caseId === caseId && r.variantId === variant)!;

const RUNTIMES = ['node', 'deno', 'bun', 'workerd'];

// Side by side: each test is a run of its own, and a request's figure is its thread's CPU time, not its wall time.
describe.concurrent('request-shaped cases', () => {
  it('a planted tail: on every runtime the requests over the limit are the planted ones, with the JavaScript thread and all threads apart', async () => {
    // One process a runtime. A smoke run: the suite's 41 requests, 5 to the empty handler, and each profiled server
    // served 20 requests, then 30 and 300 ms under the profile (a measuring run serves it a second and more).
    const { status, stdout, stderr, run, out } = await bench(['--runtime', RUNTIMES.join(','), '--rounds', '1', '--filter', 'planted tail', '--cpu-limit', '15ms', '--metrics', 'memory', '--profile']);
    expect(status, stderr).toBe(0);
    expect(run.options.measurer).toBe('request-cpu');
    expect(run.options.measurerFields).toEqual({ smoke: true });
    // The limit is a view option: the table gives the share over it; the run saves the requests, not the limit.
    expect(stdout).toContain('> 15 ms: the share of requests over the limit');
    expect(JSON.stringify(run.options)).not.toContain('cpuLimit');
    expect(run.digestMismatches).toEqual([]);
    // Every 10th request the handler serves is the tail: 0-based indices 9, 19, 29, 39 (the first request, cold, is its own figure).
    const planted = [9, 19, 29, 39];
    for (const variant of RUNTIMES) {
      const js = result(run, 'planted tail [cpu=js thread]', variant);
      const all = result(run, 'planted tail [cpu=all threads]', variant);
      expect(js.rounds.length, `${variant}: ${JSON.stringify(js.failures)}`).toBe(1);
      js.rounds.forEach((round, i) => {
        expect(round.samples.length).toBe(41);
        expect(result(run, 'planted tail [cpu=empty handler]', variant).rounds[i]!.samples, variant).toHaveLength(5);
        // Each request also keeps the CPU after it (to the next request's start, the last one's to the end of serving).
        expect(requestsOf(round)!.afterMs, variant).toHaveLength(41);
        const over = round.samples.flatMap((ms, index) => (index > 0 && ms > 15 ? [index] : []));
        expect(over, variant).toEqual(planted);
        // The JavaScript thread is the one the spin moved; all threads include it.
        expect(requestsOf(round)!.jsThread.main, variant).toBe(true);
        all.rounds[i]!.samples.forEach((ms, index) => expect(ms).toBeGreaterThanOrEqual(round.samples[index]!));
      });
    }
    // --metrics memory: each server's resident memory, read by the host, in every round on every runtime: more than a
    // MiB (a runtime's own), below the bound each process is held to, its peak at least what it held as it listened.
    const bound = run.host.memoryBound ?? run.host.memoryBytes;
    for (const variant of RUNTIMES) {
      const js = result(run, 'planted tail [cpu=js thread]', variant);
      expect(js.memory?.rounds, variant).toBe(1);
      for (const round of js.rounds) {
        const memory = round.memory!;
        expect(memory.peakBytes, variant).toBeGreaterThan(2 ** 20);
        expect(memory.peakBytes, variant).toBeLessThan(bound);
        expect(memory.peakBytes, variant).toBeGreaterThanOrEqual(memory.openBytes);
        // The growth series: after each steady request, from the reading after the warm-up.
        const steadyFrom = requestsOf(round)!.phases?.steadyFrom;
        if (steadyFrom !== undefined) expect(memory.sampleBytes, variant).toHaveLength(round.samples.length - steadyFrom);
      }
    }
    expect(stdout).toContain('peak RSS');
    expect(stdout.replace(/\s+/g, ' ')).toContain("a request case's row is its server process");
    expect(stdout).not.toContain('holds no resident-memory readings');
    // node's own thread clock is the cross-check; the others have none.
    expect(requestsOf(result(run, 'planted tail [cpu=js thread]', 'node').rounds[0]!)!.threadClockMs?.length).toBe(40);
    expect(requestsOf(result(run, 'planted tail [cpu=js thread]', 'workerd').rounds[0]!)!.threadClockMs).toBeUndefined();
    // The distribution section: 4 of 40 requests over 15 ms, read over the process's steady requests (how many
    // came before its steady point varies, at most 21: two windows of 10 follow it): from 9.5% to 13.6%.
    expect(stdout).toContain('CPU per request (ms)');
    expect(stdout).toMatch(/> 15 ms/);
    const row = /\n {2}node\s.*\s(\d+\.\d\d)%\s+(\d+) in 1\n/.exec(stdout);
    expect(row, stdout).not.toBeNull();
    expect(Number(row![1])).toBeGreaterThanOrEqual(8);
    expect(Number(row![1])).toBeLessThanOrEqual(14);
    expect(Number(row![2])).toBeLessThanOrEqual(40);
    // --profile: each runtime's server profiled over its steady requests (between its marks, or under workerd's
    // inspector), and the handler's own function leads the JavaScript that ran: named at its line in the Worker's file.
    // The engine's own frames (builtins, a script-less wrapper) are left out: their share moves with the machine's load.
    const manifest = parseProfileManifest(JSON.parse(readFileSync(join(out.replace(/\.json$/, '.profiles'), PROFILE_MANIFEST_FILE), 'utf8')), out);
    for (const variant of RUNTIMES) {
      const entry = manifest.profiles.find((p) => p.variantId === variant);
      expect(entry, variant).toMatchObject({ caseId: 'planted tail [cpu=js thread]', status: 'ok', window: { method: 'markers' } });
      // A measuring run's warm-up is 50 requests at least.
      expect(Number(/a request server: (\d+) steady requests after 20 to warm up/.exec(entry!.method ?? '')?.[1]), entry!.method).toBeGreaterThanOrEqual(30);
      const frames = (node: CallTreeNode): CallTreeNode[] => [node, ...node.children.flatMap(frames)];
      const [top] = frames(entry!.tree!.root).filter((f) => f.category !== 'idle' && f.category !== 'engine').sort((a, b) => b.selfMs - a.selfMs);
      expect(top?.location ?? `no location: ${top?.name} (${top?.category})`, `${variant}: ${top?.name}`).toMatch(/^test\/fixtures\/request-cases\/tail\.ts:\d+$/);
    }
  });

  // One that never answers a request is request-faults.test.ts's (its outcomes on four runtimes, and the table's note).
  it('a handler that throws or answers no Response on some requests: counted, every request measured', async () => {
    const { status, stdout, stderr, run } = await bench(['--runtime', 'node', '--rounds', '1', '--filter', 'faulty']);
    expect(status, stderr).toBe(0);
    const faulty = result(run, 'faulty [cpu=js thread]', 'node').rounds[0]!;
    // 41 requests: the 7th, 14th … 35th throw (5), the 11th, 22nd and 33rd answer a string (3); every one has its CPU figure.
    expect(requestsOf(faulty)!.outcomes).toEqual({ ok: 33, serverError: 0, threw: 5, notAResponse: 3, timedOut: 0 });
    expect(faulty.samples.length).toBe(41);
    expect(stdout).toContain('of 41 requests 5 threw, 3 answered no Response');
  });

  it('--concurrency 4: the server had more than one request in flight; each request keeps its latency; the rule and N are saved', async () => {
    const { status, stderr, run } = await bench(['--runtime', 'node', '--rounds', '1', '--filter', 'in flight', '--concurrency', '4']);
    expect(status, stderr).toBe(0);
    const round = result(run, 'in flight [cpu=js thread]', 'node').rounds[0]!;
    // The handler writes a line each time it finds another request in flight (none when they come one at a time).
    expect(requestsOf(round)!.consoleLines).toBeGreaterThan(0);
    expect(requestsOf(round)!.concurrency).toBe(4);
    expect(requestsOf(round)!.sameWork).toBe('masked');
    expect(round.samples).toHaveLength(9);
    expect(requestsOf(round)!.latencyMs).toHaveLength(9);
    // Each request in a wave is given its share of the CPU after the wave.
    expect(requestsOf(round)!.afterMs).toHaveLength(9);
    // A thread clock read response by response is no request's own when requests overlap.
    expect(requestsOf(round)!.threadClockMs).toBeUndefined();
  });
});
