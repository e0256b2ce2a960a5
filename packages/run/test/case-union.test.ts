/** A brought file's cases merged from the runtimes that listed them (src/case-union.ts). */
import { describe, expect, it } from 'vitest';
import type { CaseListing } from '@rtbench/core/protocol';
import { caseUnion } from '../src/case-union.ts';

const cases = (...ids: string[]): CaseListing[] => ids.map((id) => ({ id, name: id, params: {} }));

describe('the cases of a file listed on several runtimes', () => {
  it('is every case once, in the order listed, with nothing absent and no line when all agree', () => {
    const union = caseUnion([{ variants: ['node'], cases: cases('a', 'b') }, { variants: ['deno'], cases: cases('a', 'b') }]);
    expect(union).toEqual({ cases: cases('a', 'b'), absent: {} });
  });

  it('keeps a case only one runtime defines, names where each such case is defined in one line, and the variants lacking it', () => {
    const union = caseUnion([
      { variants: ['node', 'node jitless'], cases: cases('a', 'node only') },
      { variants: ['deno'], cases: cases('deno only', 'a', 'not bun') },
      { variants: ['bun'], cases: cases('a') },
      { variants: ['workerd'], cases: cases('a', 'not bun', 'deno only') },
    ]);
    expect(union.cases.map((c) => c.id)).toEqual(['a', 'node only', 'deno only', 'not bun']);
    expect(union.absent).toEqual({
      'node only': ['deno', 'bun', 'workerd'],
      'deno only': ['node', 'node jitless', 'bun'],
      'not bun': ['node', 'node jitless', 'bun'],
    });
    expect(union.line).toBe('cases defined on some runtimes only (unsupported elsewhere): "node only" on node, node jitless only; "deno only", "not bun" on deno, workerd only');
  });
});
