/**
 * The host's own work is bounded by what a case or a user hands it, not by
 * its square: a pattern that backtracks, a 256 KB error message, a stack of
 * thousands of frames. No test here measures time: each input would keep a
 * backtracking or quadratic host busy far beyond vitest's timeout, so
 * finishing at all is the behaviour checked, with the result it gives.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filterCases } from '@rtbench/suite-loader';
import { UsageError } from '@rtbench/core/usage-error';
import { frameLocation, mapStack } from '../../packages/measurers/src/stack-map.ts';
import { capStack, capText, MAX_MESSAGE_CHARS, MAX_STACK_LINES } from '../../packages/measurers/src/case-text.ts';

const cases = (...ids: string[]) => ids.map((id) => ({ id }));

describe('--filter', () => {
  it('matches /regex/ in linear time: a pattern that backtracks exponentially answers at once', () => {
    const long = `${'a'.repeat(50_000)}!`;
    expect(filterCases(cases(long, 'aaa'), '/(a+)+$/').map((c) => c.id)).toEqual(['aaa']);
    expect(filterCases(cases(long, 'b'), '/(a|aa)+b/,b').map((c) => c.id)).toEqual(['b']);
  });

  it('keeps what filters are used for: substrings, classes, alternation, anchors, flags, lookbehind', () => {
    const ids = ['parse / identity reviver (arrow) [size=10kb]', 'parse / date reviver [size=500kb]', 'stringify [size=10kb]'];
    const pick = (f: string) => filterCases(cases(...ids), f).map((c) => c.id);
    expect(pick('REVIVER')).toEqual(ids.slice(0, 2));
    expect(pick('/identity reviver \\(arrow\\) \\[size=10kb\\]/')).toEqual([ids[0]]);
    expect(pick('/^parse.*500/')).toEqual([ids[1]]);
    expect(pick('/STRINGIFY/i')).toEqual([ids[2]]);
    expect(pick('/size=(10|500)kb\\]$/g')).toEqual(ids);
    expect(pick('/(?<=date )reviver/')).toEqual([ids[1]]);
  });

  it('refuses, in one line, what no linear-time matcher does (backreferences, lookahead) and unknown flags', () => {
    for (const [filter, said] of [
      ['/(a)\\1/', /--filter \/\(a\)\\1\/: .*linear time/],
      ['/a(?=b)/', /--filter \/a\(\?=b\)\/: .*no backreferences or lookahead/],
      ['/a/x', /the flag "x" is not one a filter takes/],
    ] as const) {
      let error: unknown;
      try {
        filterCases(cases('ab'), filter);
      } catch (e) {
        error = e;
      }
      expect(error, filter).toBeInstanceOf(UsageError);
      expect((error as Error).message).toMatch(said);
      expect((error as Error).message).not.toContain('\n');
    }
  });
});

describe('text a case hands the host', () => {
  it('a message is cut to a bound, saying how much was left out', () => {
    expect(capText('short')).toBe('short');
    const cut = capText('m'.repeat(256 << 10));
    expect(cut.length).toBeLessThan(MAX_MESSAGE_CHARS + 40);
    expect(cut).toMatch(/… \(260144 more characters\)$/);
  });

  it('a stack keeps its frames whatever the size of the message heading it', () => {
    const stack = `Error: ${'m'.repeat(256 << 10)}\n${Array.from({ length: 5000 }, (_, i) => `    at f${i} (/x/bundle.mjs:${i + 1}:5)`).join('\n')}`;
    const capped = capStack(stack).split('\n');
    expect(capped).toHaveLength(MAX_STACK_LINES + 1);
    expect(capped[1]).toBe('    at f0 (/x/bundle.mjs:1:5)');
    expect(capped.at(-1)).toBe('… (4901 more lines)');
  });

  it('frame locations are read from the end of a word, linearly, as the runtimes write them', () => {
    expect(frameLocation('file:///a/b.mjs:12:34')).toEqual({ path: 'file:///a/b.mjs', line: '12', column: '34' });
    expect(frameLocation('/a/b.mjs:1:2')).toEqual({ path: '/a/b.mjs', line: '1', column: '2' });
    expect(frameLocation('http://h:80/a.js:3:4')).toEqual({ path: 'http://h:80/a.js', line: '3', column: '4' });
    for (const word of ['m'.repeat(1 << 20), ':1:2', 'a:1', 'a:b:c', `a${':x'.repeat(1 << 18)}`]) expect(frameLocation(word)).toBeUndefined();
  });

  it('maps a stack whose message is 256 KB of one letter (a bundle with a source map)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-stack-'));
    const bundle = join(dir, 'node-0.mjs');
    const map = { version: 3, sources: ['bench.mjs'], sourceRoot: dir, names: [], mappings: 'AAAA;AACA' };
    writeFileSync(bundle, `x;\nthrow 1;\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(JSON.stringify(map)).toString('base64')}\n`);
    const stack = `Error: ${'m'.repeat(256 << 10)}\n    at f (${bundle}:2:1)`;
    const mapped = mapStack(stack, bundle);
    expect(mapped.where).toBe(`${join(dir, 'bench.mjs')}:2:1`);
    expect(mapped.stack.endsWith(`at f (${join(dir, 'bench.mjs')}:2:1)`)).toBe(true);
  });

  it('maps a stack through a map kept beside the bundle to the same positions as through an inline one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-stack-'));
    const map = { version: 3, sources: ['bench.mjs'], sourceRoot: dir, names: [], mappings: 'AAAA;AACA' };
    const inline = join(dir, 'node-0.mjs');
    writeFileSync(inline, `x;\nthrow 1;\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(JSON.stringify(map)).toString('base64')}\n`);
    const beside = join(dir, 'deno-0.mjs');
    writeFileSync(beside, 'x;\nthrow 1;\n');
    writeFileSync(`${beside}.map`, JSON.stringify(map));
    const [fromInline, fromBeside] = [inline, beside].map((bundle) => mapStack(`Error: x\n    at f (file://${bundle}:2:1)`, bundle));
    expect(fromBeside!.where).toBe(`${join(dir, 'bench.mjs')}:2:1`);
    expect(fromBeside!.stack).toBe(fromInline!.stack);
  });
});
