/**
 * "Same work" says what it can see, on all four runtimes
 * (test/fixtures/values-digested): URL, Headers, typed arrays, Map, Set,
 * Symbol keys, a class's accessors and a returned Response (its body read
 * once, outside the timing) digest by what they hold, the same on every
 * runtime for the same content (every kind in one object, one case, but the
 * Response) and apart for different content (a case a kind); a value
 * whose content no digest can see (a Promise, #private-only state) is
 * named per case. The cases share one warm process a runtime
 * (lockstep-shared): a digest is of what a case returns, whichever process
 * returns it, and a case in processes of its own is test/lockstep.test.ts's.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { fixture, runCli, tempFile, type CliResult } from './helpers/cli.ts';

const RUNTIMES = ['node', 'deno', 'bun', 'workerd'] as const;
const KINDS = ['url', 'headers', 'typed array', 'map', 'set', 'symbol key', 'accessor', 'response'];

describe('what the digest sees of the values cases return, on all four runtimes', () => {
  let cli: CliResult;
  let run: RunRecord;
  beforeAll(() => {
    const out = tempFile('values-digested.json');
    cli = runCli(['bench', fixture('values-digested'), '--runtime', RUNTIMES.join(','), '--rounds', '1', '--time', '5ms', '--warmup', '1ms', '--fixed-warmup', '--schedule', 'lockstep-shared', '--save', out]);
    run = parseRun(JSON.parse(readFileSync(out, 'utf8')), out);
  });

  /** The case that returns `kind` with the same content on every runtime: every kind in one object but the Response. */
  const sameCase = (kind: string): string => (kind === 'response' ? 'response (same)' : 'every kind (same)');

  it.each(KINDS)('%s: one digest on every runtime for the same content, apart for content that names the runtime', (kind) => {
    const same = run.results.filter((r) => r.caseId === sameCase(kind));
    expect(same.map((r) => r.status)).toEqual(RUNTIMES.map(() => 'ok'));
    expect(new Set(same.map((r) => r.rounds[0]!.digest.hash)).size).toBe(1);
    const mismatch = run.digestMismatches.find((m) => m.caseId === `${kind} (per runtime)`);
    expect(mismatch, cli.stderr.slice(-1500)).toBeDefined();
    expect(new Set(Object.values(mismatch!.digests)).size).toBe(RUNTIMES.length);
    expect(run.digestMismatches.map((m) => m.caseId)).not.toContain(sameCase(kind));
  });

  it('names, per case, a value whose content it cannot see', () => {
    const said = `${cli.stdout}\n${cli.stderr}`.replace(/\s+/g, ' ');
    expect(said).toContain(`promise (${RUNTIMES.join(', ')}): its value shows no content to compare`);
    expect(said).toMatch(/private state \(node, deno, bun, workerd\): its value shows no content to compare .*an instance of Hidden with no state the digest can read/);
    // Only the no-content note is read here: a dead-code mark (∅) may also name a case, from sampled figures.
    for (const caseId of [...KINDS.map((kind) => `${kind} \\(per runtime\\)`), 'every kind \\(same\\)', 'response \\(same\\)']) expect(said).not.toMatch(new RegExp(`${caseId} \\([^)]*\\): its value shows no content`));
  });
});
