// A vitest benchmark file as vitest's documentation writes one: describe blocks, options, hooks.
import { beforeAll, bench, describe } from 'vitest';

let parts: string[] = [];

beforeAll(() => {
  parts = Array.from({ length: 200 }, (_, i) => `part ${i}`);
});

describe('join 200 parts', () => {
  bench('Array.prototype.join', () => {
    parts.join(',');
  }, { time: 500 });

  bench('+= in a loop', () => {
    let text = '';
    for (const part of parts) text += `${part},`;
    if (text.length === 0) throw new Error('nothing joined');
  });

  bench.skip('not yet', () => {});
});

describe('sort', () => {
  let numbers: number[] = [];
  bench(
    'numbers',
    () => {
      numbers.slice().sort((a, b) => a - b);
    },
    {
      setup() {
        numbers = Array.from({ length: 100 }, (_, i) => (i * 7919) % 100);
      },
    },
  );
});
