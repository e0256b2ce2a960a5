/**
 * While a brought file loads, Math.random is seeded: every process draws the
 * same inputs at the file's top level. Once it has loaded, the timed calls
 * see the runtime's own generator, however they reach it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withSeededRandom } from '../src/seeded-random.ts';
import { ofType } from './run-case.ts';

const own = Math.random;
afterEach(() => {
  Math.random = own;
});

/** What a file's top level draws: n values, and a reference it keeps to Math.random. */
async function load(n: number): Promise<{ drawn: number[]; kept: () => number }> {
  return withSeededRandom(async () => ({ drawn: Array.from({ length: n }, () => Math.random()), kept: Math.random }));
}

describe('Math.random while a brought file loads', () => {
  it('draws the same sequence in every load, doubles in [0, 1) that differ from one another', async () => {
    const a = await load(1000);
    const b = await load(1000);
    expect(b.drawn).toEqual(a.drawn);
    expect(a.drawn.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(new Set(a.drawn).size).toBe(1000);
    // 53 random bits, as the runtime's own: the low bits vary too.
    expect(new Set(a.drawn.map((x) => (x * 2 ** 53) % 2)).size).toBe(2);
  });

  it("is the runtime's own once the file has loaded, also through a reference the file kept", async () => {
    const runtimes = vi.fn(() => 0.25);
    Math.random = runtimes;
    const { kept } = await load(3);
    expect(Math.random).toBe(runtimes);
    expect(kept()).toBe(0.25);
    expect(runtimes).toHaveBeenCalledTimes(1);
  });

  it("gives the runtime's own back when the file throws while loading", async () => {
    await expect(withSeededRandom(async () => {
      Math.random();
      throw new Error('boom');
    })).rejects.toThrow('boom');
    expect(Math.random).toBe(own);
  });

  it('leaves a generator the file installed itself in place', async () => {
    const files = (): number => 0.5;
    await withSeededRandom(async () => {
      Math.random = files;
    });
    expect(Math.random).toBe(files);
  });
});

describe('a brought file whose top level draws its input with Math.random', () => {
  /** One process's load of the file, as a runtime loads it; `digest` runs a case as it is timed and gives its digest. */
  async function loadFile(realRandomAtLoad?: boolean) {
    vi.resetModules();
    const registry = await import('../src/registry.ts');
    const mitata = await import('../src/mitata.ts');
    const { runCase } = await import('./run-case.ts');
    const suite = await registry.broughtSuite('t', async () => {
      const input = Array.from({ length: 8 }, () => Math.floor(Math.random() * 1e6)).join(',');
      mitata.bench('parse', () => JSON.parse(`[${input}]`));
      mitata.bench('draw', () => Math.random());
    }, { declaredValues: [{ pattern: 'draw', why: 'random' }], ...(realRandomAtLoad ? { realRandomAtLoad } : {}) });
    return { digest: async (id: string) => ofType(await runCase(suite, id), 'result')[0]!.digest };
  }

  it("times the same input in every process; its timed calls see the runtime's own generator", async () => {
    const runtimes = vi.fn(own);
    Math.random = runtimes;
    const a = await loadFile();
    const b = await loadFile();
    // The loads drew from the seeded generator, never the runtime's.
    expect(runtimes).not.toHaveBeenCalled();
    expect((await b.digest('parse')).hash).toBe((await a.digest('parse')).hash);
    expect(runtimes).not.toHaveBeenCalled();
    await a.digest('draw');
    expect(runtimes).toHaveBeenCalled();
  });

  it('with realRandomAtLoad, each process draws its own input from the runtime', async () => {
    const runtimes = vi.fn(own);
    Math.random = runtimes;
    const a = await loadFile(true);
    const b = await loadFile(true);
    expect(runtimes).toHaveBeenCalledTimes(16);
    expect((await b.digest('parse')).hash).not.toBe((await a.digest('parse')).hash);
  });
});
