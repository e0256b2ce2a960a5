/**
 * Input the runtime tests' commands refuse before any runtime starts, each
 * in one line with exit code 2: request-shaped options out of range or on a
 * suite of other cases, brought files and Workers rtbench cannot run as
 * they are, bad values of --same-work and --shard, and shards that do
 * not belong together. The command line runs in the test's own process
 * (command-run.ts); the runs these options shape are the runtime tests'
 * (request-cases, workers, brought-formats, changing-responses, examples,
 * cli and shards under test/ and packages/cli/test/).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { fixture, repoRoot, tempFile } from '../../../test/helpers/cli.ts';
import { syntheticRun, writeRun } from '../../../test/compare-synthetic.ts';
import { shardCases } from '../src/shards/shard.ts';
import { commandLine } from './usage-lines.ts';

const REQUEST_SUITE = join(repoRoot, 'test', 'fixtures', 'request-cases');
const WORKERS = join(repoRoot, 'test', 'fixtures', 'workers');
const BROUGHT = join(repoRoot, 'test', 'fixtures', 'brought');

/** The lines of what a refused command printed on stderr, after its exit code 2. */
async function refused(args: string[]): Promise<string[]> {
  const said = await commandLine(args);
  expect(said.status, `${args.join(' ')}\n${said.stderr}`).toBe(2);
  return said.stderr.trim().split('\n');
}

describe.concurrent('request-shaped options', () => {
  it.each(['0ms', 'abc', '100000s'])('a CPU limit of %s is refused in one line', async (limit) => {
    const lines = await refused(['bench', REQUEST_SUITE, '--runtime', 'node', '--cpu-limit', limit]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`--cpu-limit ${limit}`);
    if (limit === '100000s') expect(lines[0]).toContain('at most a day (86400s)');
  });

  it('--concurrency 0, and --concurrency for a suite of other cases, are refused in one line', async () => {
    expect(await refused(['bench', REQUEST_SUITE, '--runtime', 'node', '--concurrency', '0'])).toEqual(['error: --concurrency 0: write a whole number of requests from 1 to 256']);
    expect(await refused(['bench', 'trig', '--runtime', 'node', '--concurrency', '4'])).toEqual(['error: --concurrency goes with a suite request-shaped (CPU per request, read by the host)']);
  });

  it('a --same-work other than masked or strict is refused in one line', async () => {
    const lines = await refused(['bench', join(repoRoot, 'test', 'fixtures', 'changing-responses'), '--runtime', 'node', '--same-work', 'loose']);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('--same-work loose: write masked or strict');
  });
});

describe.concurrent('brought files and Workers rtbench cannot run as they are', () => {
  it('a binding rtbench cannot stand in for, a request that does not parse, a --normalize that is no regular expression', async () => {
    expect(await refused(['run', join(WORKERS, 'wrangler-kv'), '--runtime', 'node'])).toEqual([
      'error: wrangler.jsonc declares a KV namespace binding (kv_namespaces: CACHE): rtbench cannot stand in for it, and a Worker measured without it is not this Worker',
    ]);
    expect(await refused(['run', join(WORKERS, 'clock', 'worker.js'), '--runtime', 'node', '--request', 'FETCH /'])).toEqual(['error: --request "FETCH /": method FETCH is not one rtbench sends (GET, POST, PUT, DELETE)']);
    expect(await refused(['run', join(WORKERS, 'clock', 'worker.js'), '--runtime', 'node', '--normalize', 'at ('])).toEqual([expect.stringMatching(/^error: --normalize: the pattern "at \(" is not a regular expression: .+$/)]);
    expect(await refused(['run', join(WORKERS, 'clock', 'worker.js'), '--runtime', 'node', '--random', 'x'])).toEqual([expect.stringMatching(/^error: --random and --per-runtime declare a benchmark file's cases; .*worker\.js is a Worker \(a value that changes per response: --normalize\)$/)]);
  });

  it('a Node core file that needs the HTTP harness, --set on a file of another format', async () => {
    expect(await refused(['run', join(BROUGHT, 'benchmark', 'http', 'server.js'), '--quiet'])).toEqual([
      expect.stringMatching(/needs more of Node's benchmark harness than a microbenchmark: it starts an HTTP server and a load generator \(bench\.http\)/),
    ]);
    expect((await refused(['run', join(repoRoot, 'examples', 'deno-text.bench.ts'), '--set', 'n=1', '--quiet'])).join('\n')).toMatch(/--set sets a configuration of a Node\.js core benchmark file/);
  });

  it('a file written for none of the harnesses rtbench stands in for', async () => {
    expect(await refused(['run', fixture('tiny')])).toEqual([
      expect.stringMatching(/^error: .*is not a benchmark file or a Worker rtbench can bring \(mitata, tinybench, vitest bench\(\), benchmark\.js, node:bench, Deno\.bench, or a Node\.js core benchmark/),
    ]);
  });
});

describe.concurrent('output places and shards', () => {
  it('--shard past its count', async () => {
    expect(await refused(['bench', fixture('tiny'), '--runtime', 'node,bun', '--shard', '3/2', '--quiet'])).toEqual([expect.stringMatching(/--shard 3\/2: expected i\/n/)]);
  });

  it('merge refuses a shard of other options, a shard given twice, and a run that is no shard, in one line each', async () => {
    const cases = [{ id: 'a', ns: 100 }, { id: 'b', ns: 200 }, { id: 'c', ns: 300 }];
    const whole = syntheticRun({ cases, arms: [{ id: 'node', factor: 1 }, { id: 'bun', factor: 0.8 }], rounds: 1 });
    const shard = (index: number, options: Partial<RunRecord['options']> = {}): string => {
      const mine = shardCases(whole.cases, { index, count: 2 });
      const run: RunRecord = { ...whole, options: { ...whole.options, ...options, shard: { index, count: 2 } }, cases: mine, results: whole.results.filter((r) => mine.some((c) => c.id === r.caseId)) };
      return writeRun(tempFile(`s${index}.json`), run);
    };
    const first = shard(1);
    // Another --timeout than the first shard's.
    const other = shard(2, { timeoutMs: 300_000 });
    const wholeFile = writeRun(tempFile('whole.json'), whole);
    expect(await refused(['merge', first, other, '--save', tempFile('x.json')])).toEqual([expect.stringMatching(/does not belong with .*: other options/)]);
    expect(await refused(['merge', first, first, '--save', tempFile('x.json')])).toEqual([expect.stringMatching(/shard 1\/2 is given twice/)]);
    expect(await refused(['merge', wholeFile, first, '--save', tempFile('x.json')])).toEqual([expect.stringMatching(/is not a shard run/)]);
  });
});
