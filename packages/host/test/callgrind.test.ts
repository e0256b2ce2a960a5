/**
 * Reading callgrind's dumps (packages/host valgrind.ts): the totals with and
 * without the cache simulation, each function's own instructions, and a
 * dump's threads summed. The counts under valgrind on the real runtimes:
 * test/instructions.test.ts.
 */
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { estimatedCycles, parseCallgrindFunctions, parseCallgrindTotals, takeDump } from '../src/tools.ts';

describe('callgrind dumps', () => {
  it('reads the totals of a callgrind dump, with the cache simulation\'s misses and the estimated cycles', () => {
    const dump = ['version: 1', 'creator: callgrind-3.19.0', 'events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw', 'fn=(1) main', '1 10 2 1', 'summary: 1000 400 200 5 7 3 1 2 4', 'totals: 1000 400 200 5 7 3 1 2 4', ''].join('\n');
    const summary = parseCallgrindTotals(dump)!;
    expect(summary).toEqual({ instructions: 1000, l1Misses: 15, llMisses: 7 });
    expect(estimatedCycles(summary)).toBe(1000 + 10 * 15 + 100 * 7);
    // Without the cache simulation: instructions alone, and no estimated cycles.
    const plain = parseCallgrindTotals('events: Ir\nsummary: 4321\n')!;
    expect(plain).toEqual({ instructions: 4321 });
    expect(estimatedCycles(plain)).toBeUndefined();
    expect(parseCallgrindTotals('no totals here')).toBeUndefined();
  });

  it('reads each function\'s own instructions from a callgrind dump: compressed names, relative positions, and a call\'s inclusive cost left to the callee', () => {
    const text = [
      'positions: instr line',
      'events: Dr Ir',
      'summary: 9 171',
      'fn=(1) main',
      '0x10 3 2 100',
      '+2 * 1 7',
      'cfn=(2) v8::internal::Heap::Scavenge()',
      'calls=1 0x40 9',
      '+1 -1 0 60',
      'fn=(2)',
      '0x40 9 5 50',
      '-4 +1 3 10',
      'fn=(3) Builtins_JsonParse',
      '0x90 1 0 4',
      '',
    ].join('\n');
    // main: 100 + 7 (the 60 after calls= is the callee's, counted where it ran); the scavenge: 50 + 10; the builtin: 4.
    expect(parseCallgrindFunctions(text)).toEqual(new Map([['main', 107], ['v8::internal::Heap::Scavenge()', 60], ['Builtins_JsonParse', 4]]));
    // Without compressed names (--compress-strings=no, as rtbench runs callgrind): the name on every fn= line.
    expect(parseCallgrindFunctions('events: Ir\nfn=main\n0 5\nfn=f\n0 2\nfn=main\n0 1\n')).toEqual(new Map([['main', 6], ['f', 2]]));
  });

  it('sums the threads of one dump: work a runtime hands to a worker thread (a V8 scavenge) is counted wherever it ran', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-dump-'));
    const dump = (instructions: number, misses: string): string => ['events: Ir I1mr D1mr D1mw ILmr DLmr DLmw', `summary: ${instructions} ${misses}`, ''].join('\n');
    writeFileSync(join(dir, 'callgrind.out.3-01'), `${dump(226_000_000, '1 1 1 1 1 1')}fn=main\n0 200000000 1 1 1 1 1 1\nfn=scavenge\n0 26000000 0 0 0 0 0 0\n`);
    writeFileSync(join(dir, 'callgrind.out.3-04'), `${dump(39_000_000, '2 2 2 2 2 2')}fn=scavenge\n0 39000000 2 2 2 2 2 2\n`);
    // Dump 30's file is not dump 3's.
    writeFileSync(join(dir, 'callgrind.out.30-01'), dump(9, '0 0 0 0 0 0'));
    expect(takeDump(dir, 3, true)).toEqual({ instructions: 265_000_000, otherThreads: 39_000_000, l1Misses: 9, llMisses: 9, functions: new Map([['main', 200_000_000], ['scavenge', 65_000_000]]) });
    // Its files are removed once read; the other dump's stay.
    expect(readdirSync(dir)).toEqual(['callgrind.out.30-01']);
    // Without --separate-threads, one file named by the dump alone.
    writeFileSync(join(dir, 'callgrind.out.4'), 'events: Ir\nsummary: 77\n');
    // Totals alone unless the functions are asked for.
    expect(takeDump(dir, 4)).toEqual({ instructions: 77 });
    expect(() => takeDump(dir, 5)).toThrow(/no dump 5/);
    // A file without totals is an error that names it, and is removed all the same.
    writeFileSync(join(dir, 'callgrind.out.6-01'), 'no totals here');
    expect(() => takeDump(dir, 6)).toThrow(/callgrind\.out\.6-01 holds no totals/);
    expect(existsSync(join(dir, 'callgrind.out.6-01'))).toBe(false);
  });
});
