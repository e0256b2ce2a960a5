/**
 * A case the file declares random or per-runtime is digested by its value's
 * shape: two random values of one shape agree, another shape does not, and
 * the file's other cases are still compared by their values.
 */
import { describe, expect, it, vi } from 'vitest';
import { ofType } from './run-case.ts';

/** One load of a file's declarations, as a runtime's process loads it, and one case run. */
async function digestOf(declare: (tinybench: typeof import('../src/tinybench.ts')) => unknown, caseId: string) {
  vi.resetModules();
  const registry = await import('../src/registry.ts');
  const tinybench = await import('../src/tinybench.ts');
  const { runCase } = await import('./run-case.ts');
  const declaredValues = [{ pattern: 'ids / random*', why: 'random' as const }];
  const suite = await registry.broughtSuite('t', async () => declare(tinybench), { sourceHash: 'aaaa', declaredValues });
  const messages = await runCase(suite, caseId);
  return { digest: ofType(messages, 'result')[0]!.digest, warnings: ofType(messages, 'warning').map((w) => w.message) };
}

const file = (random: () => unknown, planted: number) => (tinybench: typeof import('../src/tinybench.ts')) =>
  new tinybench.Bench({ name: 'ids' }).add('random id', random).add('counter', () => [1, 2, planted]);

describe('a value declared random', () => {
  it('is compared by its shape: two UUIDs agree, a value of another shape does not', async () => {
    const a = await digestOf(file(() => crypto.randomUUID(), 3), 'ids / random id');
    const b = await digestOf(file(() => crypto.randomUUID(), 3), 'ids / random id');
    const longer = await digestOf(file(() => `${crypto.randomUUID()}!`, 3), 'ids / random id');
    expect(b.digest.hash).toBe(a.digest.hash);
    expect(longer.digest.hash).not.toBe(a.digest.hash);
    expect(a.warnings).toEqual(['its value is declared random (--random or a "// rtbench: random <case>" comment): the check that every runtime did the same work compares its shape (types, lengths, keys), not its content']);
  });

  it('compares records by their keys and the shapes of their values', async () => {
    const a = await digestOf(file(() => ({ id: Math.random(), at: 'x' }), 3), 'ids / random id');
    const b = await digestOf(file(() => ({ at: 'y', id: Math.random() }), 3), 'ids / random id');
    const other = await digestOf(file(() => ({ id: String(Math.random()), at: 'x' }), 3), 'ids / random id');
    expect(b.digest.hash).toBe(a.digest.hash);
    expect(other.digest.hash).not.toBe(a.digest.hash);
  });

  it("leaves the file's other cases compared by value: a planted difference there is still seen", async () => {
    const a = await digestOf(file(() => Math.random(), 3), 'ids / counter');
    const planted = await digestOf(file(() => Math.random(), 4), 'ids / counter');
    expect(planted.digest.hash).not.toBe(a.digest.hash);
    expect(a.warnings).toEqual([]);
  });
});
