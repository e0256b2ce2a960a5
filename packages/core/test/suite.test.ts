import { describe, expect, it } from 'vitest';
import { bench, group, suite } from '../src/index.ts';

describe('suite()', () => {
  it('expands .args into one case per combination, with stable ids', () => {
    const s = suite('demo', () => {
      group('parse', () => {
        bench('plain', () => 1).args({ size: ['10kb', '500kb'], mode: [1, 2] });
      });
      bench('solo', () => 2);
    });
    const ids = s.cases().map((c) => c.id);
    expect(ids).toEqual([
      'parse / plain [size=10kb, mode=1]',
      'parse / plain [size=10kb, mode=2]',
      'parse / plain [size=500kb, mode=1]',
      'parse / plain [size=500kb, mode=2]',
      'solo',
    ]);
    expect(s.cases()[1]!.params).toEqual({ size: '10kb', mode: 2 });
  });

  it('runs the declaration lazily and the same way every time', () => {
    let calls = 0;
    const s = suite('lazy', () => {
      calls++;
      bench('a', () => 1);
    });
    expect(calls).toBe(0);
    expect(s.cases().map((c) => c.id)).toEqual(s.cases().map((c) => c.id));
    expect(calls).toBe(2);
  });

  it('rejects duplicate case ids, nested groups and bench() outside a suite', () => {
    expect(() =>
      suite('dup', () => {
        bench('x', () => 1);
        bench('x', () => 2);
      }).cases(),
    ).toThrow(/declares the case "x" twice/);
    expect(() =>
      suite('nest', () => {
        group('a', () => group('b', () => bench('x', () => 1)));
      }).cases(),
    ).toThrow(/do not nest/);
    expect(() => bench('orphan', () => 1)).toThrow(/inside suite/);
    expect(() => suite('Bad Name', () => {})).toThrow(/kebab-case/);
  });

  it('rejects .args without values', () => {
    expect(() =>
      suite('empty-args', () => {
        bench('x', () => 1).args('n', []);
      }).cases(),
    ).toThrow(/at least one value/);
  });
});

describe('a refused name', () => {
  it('keeps its reason on the first line when the name holds a newline (the loader shows the first line)', () => {
    let message = '';
    try {
      suite('nl', () => {
        bench('bad/\nname', () => 1);
      }).cases();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.split('\n')[0]).toBe('case name "bad/\\nname" may not contain "/" or "["');
    expect(() => suite('nl', () => group('a\nb', () => group('c', () => {}))).cases()).toThrow(/^group "c" is nested in "a\\nb"; groups do not nest$/);
  });
});
