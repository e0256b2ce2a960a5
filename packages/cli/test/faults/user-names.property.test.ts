/**
 * Names the user chose are data, not keys: a parameter, variable or variant
 * named after something Object.prototype holds (`__proto__`, `constructor`,
 * `toString`, …) is a name like any other, through the mitata adapter, the
 * suite API, the variant syntax and a saved run read back. Every reserved
 * name is tried, then arbitrary ones (fast-check).
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { parseRun } from '@rtbench/core/schema';
import { bench, suite } from '@rtbench/core';
import { parseVariant } from '@rtbench/arms';
import { syntheticRun } from '../../../../test/compare-synthetic.ts';

const RESERVED = Object.getOwnPropertyNames(Object.prototype);
const anyName = fc.oneof(fc.constantFrom(...RESERVED), fc.string({ minLength: 1, maxLength: 12 }));

/** The cases a mitata file declaring `bench('sum', …).args(name, [1, 2])` gives, with what state.get(name) reads in each. */
async function mitataCases(name: string): Promise<{ id: string; param: unknown; got: unknown }[]> {
  vi.resetModules();
  const mitata = await import('../../../adapters/src/mitata.ts');
  const registry = await import('../../../adapters/src/registry.ts');
  const got: unknown[] = [];
  const loaded = await registry.broughtSuite('t', async () => {
    mitata.bench('sum', function* (state) {
      got.push(state.get(name));
      yield () => 1;
    }).args(name, [1, 2]);
  });
  const cases = loaded.cases();
  for (const c of cases) {
    const body = c.body as (ctx: unknown) => AsyncGenerator<unknown>;
    await body({}).next();
  }
  return cases.map((c, i) => ({ id: c.id, param: Object.hasOwn(c.params, name) ? c.params[name] : undefined, got: got[i] }));
}

describe("names from Object.prototype's list are names like any other", () => {
  it('mitata .args(name, [1, 2]) makes two cases, each reading its own value', async () => {
    for (const name of RESERVED) {
      expect(await mitataCases(name), name).toEqual([
        { id: `sum [${name}=1]`, param: 1, got: 1 },
        { id: `sum [${name}=2]`, param: 2, got: 2 },
      ]);
    }
    await fc.assert(
      fc.asyncProperty(anyName, async (name) => {
        expect((await mitataCases(name)).map((c) => c.param)).toEqual([1, 2]);
      }),
      { numRuns: 40 },
    );
  });

  it("the suite API's .args(name, [1, 2]) makes two cases", () => {
    fc.assert(
      fc.property(anyName, (name) => {
        const s = suite('t', () => {
          bench('sum', () => 1).args(name, [1, 2]);
        });
        expect(s.cases().map((c) => (Object.hasOwn(c.params, name) ? c.params[name] : undefined))).toEqual([1, 2]);
      }),
      { examples: RESERVED.map((n) => [n]) },
    );
  });

  it('a variant sets a variable of that name once, and refuses it twice', () => {
    for (const name of RESERVED.filter((n) => /^[A-Za-z_]\w*$/.test(n))) {
      const spec = parseVariant(`node ${name}=1`);
      expect(Object.keys(spec.env), name).toEqual([name]);
      expect(spec.env[name]).toBe('1');
      expect(() => parseVariant(`node ${name}=1 ${name}=2`)).toThrow(`sets ${name} twice`);
    }
  });

  it('a saved run keeps parameters, digests and flags keyed by such names when it is read back', () => {
    fc.assert(
      fc.property(anyName, (name) => {
        const run = syntheticRun({ mode: 'bench', cases: [{ id: 'a', ns: 100 }], arms: [{ id: 'node', factor: 1 }], rounds: 1 });
        const json = JSON.parse(
          JSON.stringify({
            ...run,
            cases: run.cases.map((c) => ({ ...c, params: Object.fromEntries([[name, 1]]) })),
            digestMismatches: [{ caseId: 'a', digests: Object.fromEntries([[name, 'x']]) }],
          }),
        ) as unknown;
        const back = parseRun(json, 'run.json');
        expect(Object.keys(back.cases[0]!.params)).toEqual([name]);
        expect(back.cases[0]!.params[name]).toBe(1);
        expect(Object.keys(back.digestMismatches[0]!.digests)).toEqual([name]);
        expect(JSON.parse(JSON.stringify(back.cases[0]!.params))).toEqual(JSON.parse(JSON.stringify(Object.fromEntries([[name, 1]]))));
      }),
      { examples: RESERVED.map((n) => [n]) },
    );
  });
});
