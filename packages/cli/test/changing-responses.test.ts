/**
 * Same work on changing responses, end to end on all four runtimes: a page
 * that prints the time, a UUID and a counter reads the same work (its
 * changing spans masked and said), a section rendered on one runtime only
 * reads `≠ work` with its first differing line, a value masking cannot see
 * is made plain by the suite's normalize, and --same-work strict keeps the
 * exact rule. Smoke runs (--fixed-warmup: 5 requests to the empty handler,
 * no figure read) of 6 requests a process on the four runtimes: one round
 * for the pages whose processes differ from each other (four processes are
 * four servers to tell apart) and for values that change every response,
 * two for a value fixed per process, learned across rounds.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { requestsOf } from '../../measurer-records/src/index.ts';
import { runCliAsync, tempFile } from '../../../test/helpers/cli.ts';

const SUITE = join('test', 'fixtures', 'changing-responses');
const RUNTIMES = ['node', 'deno', 'bun', 'workerd'];

async function bench(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string; run: RunRecord }> {
  const out = tempFile('run.json');
  const r = await runCliAsync(['bench', SUITE, ...args, '--fixed-warmup', '--save', out, '--quiet', '--no-color']);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, run: parseRun(JSON.parse(readFileSync(out, 'utf8')), out) };
}

let four: Awaited<ReturnType<typeof bench>>;
/** The values learned across rounds (a start time fixed per process): a round's answers hold the rounds before it. */
let learned: Awaited<ReturnType<typeof bench>>;
/** --same-work strict on the changing page. */
let strict: Awaited<ReturnType<typeof bench>>;
// The three runs side by side: most of each is servers starting.
beforeAll(async () => {
  [four, learned, strict] = await Promise.all([
    bench(['--runtime', RUNTIMES.join(','), '--rounds', '1', '--filter', '/^(changing page|planted section|named server|json items|wrong once warm) \\[cpu=js thread\\]$/']),
    bench(['--runtime', RUNTIMES.join(','), '--rounds', '2', '--filter', '/^many values \\[cpu=js thread\\]$/']),
    bench(['--runtime', 'node,deno', '--rounds', '1', '--filter', 'changing page [cpu=js thread]', '--same-work', 'strict']),
  ]);
}, 240_000);

describe('changing responses on four runtimes', () => {

  it('a page that prints the time, a UUID and a counter is the same work, its changing spans masked and said', () => {
    const { run, stdout } = four;
    expect(run.digestMismatches.map((m) => m.caseId)).not.toContain('changing page [cpu=js thread]');
    for (const variant of RUNTIMES) {
      const result = run.results.find((r) => r.caseId === 'changing page [cpu=js thread]' && r.variantId === variant)!;
      expect(result.rounds.length, `${variant}: ${JSON.stringify(result.failures)}`).toBe(1);
      expect(result.failures.filter((f) => f.kind === 'digest-mismatch')).toEqual([]);
      const [answer] = requestsOf(result.rounds[0]!)!.answers!;
      expect(answer).toMatchObject({ request: 'GET /page', status: 200, contentType: 'text/html; charset=utf-8', count: 6 });
      // The saved template shows what was masked: the table's rows are literal, the time and the id are not.
      expect(answer!.segments.join('⟨…⟩')).toContain('<p>rendered at ⟨…⟩</p>\n<p>request ⟨…⟩</p>');
      expect(answer!.segments.join('')).toContain('<td>row 19</td>');
    }
    const proof = run.sameWorkMasked?.find((p) => p.caseId === 'changing page [cpu=js thread]');
    expect(proof?.spans).toBeGreaterThanOrEqual(3);
    expect(stdout).toMatch(/"changing page( \[cpu=js thread\])?": same work, \d+ changing spans masked: \d+ of [\d,]+ bytes/);
  });

  it('a section rendered on one runtime only is different work, named by its first differing line and each length', () => {
    const { run, stdout } = four;
    const planted = run.digestMismatches.find((m) => m.caseId === 'planted section [cpu=js thread]')!;
    expect(planted.where).toMatchObject({ answer: 'GET /page → 200 text/html; charset=utf-8', line: 5 });
    expect(planted.where!.variants.bun!.text).toBe('<section>only on this runtime</section>');
    expect(planted.where!.variants.node!.text).toBe('');
    expect(planted.where!.variants.bun!.bytes).toBeGreaterThan(planted.where!.variants.node!.bytes!);
    // One note, wrapped to the terminal's width.
    const notes = stdout.replace(/\s+/g, ' ');
    expect(notes).toContain('different work on "planted section [cpu=js thread]": GET /page → 200 text/html; charset=utf-8, line 5: node "" (');
    expect(notes).toContain('bun "<section>only on this runtime</section>"');
    expect(stdout).not.toMatch(/[0-9a-f]{40}/);
  });

  it('an answer that goes wrong once warm on one runtime is different work on its line', () => {
    const warm = four.run.digestMismatches.find((m) => m.caseId === 'wrong once warm [cpu=js thread]')!;
    expect(warm.where).toMatchObject({ answer: 'GET /page → 200 text/html', line: 2, variants: { node: { text: '<p>answer 42</p>' }, bun: { text: '<p>answer ⟨…⟩</p>' } } });
    expect(four.stdout.replace(/\s+/g, ' ')).toContain('different work on "wrong once warm [cpu=js thread]": GET /page → 200 text/html, line 2: node "<p>answer 42</p>"');
  });

  it('a thousand timestamps, a locale date and a start time per process, and five hundred UUIDs in JSON, are the same work with verdicts', () => {
    expect(learned.run.digestMismatches).toEqual([]);
    expect(four.run.digestMismatches.map((m) => m.caseId)).not.toContain('json items [cpu=js thread]');
    // The start time fixed per process is learned across two rounds; the UUIDs change response by response (one round).
    for (const [caseId, run, rounds] of [['many values [cpu=js thread]', learned.run, 2], ['json items [cpu=js thread]', four.run, 1]] as const) {
      for (const variant of RUNTIMES) {
        const result = run.results.find((r) => r.caseId === caseId && r.variantId === variant)!;
        expect(result.rounds.length, `${variant} ${caseId}: ${JSON.stringify(result.failures)}`).toBe(rounds);
        expect(result.failures.filter((f) => f.kind === 'digest-mismatch')).toEqual([]);
        // Learned across the rounds: the last round's answers hold them all, with no response unlike the rest.
        const [answer] = requestsOf(result.rounds[rounds - 1]!)!.answers!;
        expect(answer).toMatchObject({ rounds, count: 6 * rounds });
        expect(answer!.unmasked).toBeUndefined();
        expect(answer!.spans).toBeGreaterThanOrEqual(caseId.startsWith('many') ? 1000 : 500);
      }
    }
    // One media type for Response.json() on every runtime, whatever charset each spelled.
    expect(new Set(RUNTIMES.map((v) => requestsOf(four.run.results.find((r) => r.caseId === 'json items [cpu=js thread]' && r.variantId === v)!.rounds[0]!)!.answers![0]!.contentType))).toEqual(new Set(['application/json']));
  });

  it('a value constant within a process but not across them is made plain by the suite\'s normalize', () => {
    expect(four.run.digestMismatches.map((m) => m.caseId)).toEqual(['planted section [cpu=js thread]', 'wrong once warm [cpu=js thread]']);
    expect(four.run.results.filter((r) => r.caseId === 'named server [cpu=js thread]').map((r) => r.rounds.length)).toEqual(RUNTIMES.map(() => 1));
  });
});

describe('--same-work', () => {
  it('strict keeps the exact rule: the changing page is different work', () => {
    const { run } = strict;
    expect(run.digestMismatches.map((m) => m.caseId)).toEqual(['changing page [cpu=js thread]']);
    expect(requestsOf(run.results[0]!.rounds[0]!)!.answers).toBeUndefined();
  });
});
