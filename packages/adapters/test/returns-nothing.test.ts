/**
 * A brought case that returns nothing is digested by what can be proven
 * without its value (the same source, the same case and inputs), so the
 * same-work check can agree; a case that returns a value is digested by it,
 * so a planted difference there still reads as different work.
 */
import { describe, expect, it, vi } from 'vitest';
import { ofType } from './run-case.ts';

let registry: typeof import('../src/registry.ts');
let tinybench: typeof import('../src/tinybench.ts');
let mitata: typeof import('../src/mitata.ts');
let runCase: typeof import('./run-case.ts').runCase;

/** One load of a file's declarations, as a runtime's process loads it (one registry per load). */
async function digestOf(sourceHash: string, declare: () => unknown, caseId: string) {
  vi.resetModules();
  registry = await import('../src/registry.ts');
  tinybench = await import('../src/tinybench.ts');
  mitata = await import('../src/mitata.ts');
  ({ runCase } = await import('./run-case.ts'));
  const suite = await registry.broughtSuite('t', async () => declare(), { sourceHash });
  const messages = await runCase(suite, caseId);
  return { digest: ofType(messages, 'result')[0]!.digest, warnings: ofType(messages, 'warning').map((w) => w.message) };
}

describe('a case that returns nothing', () => {
  it('is digested by its source, case and inputs: two loads of the same file agree, another source does not', async () => {
    const a = await digestOf('aaaa', () => new tinybench.Bench({ name: 'g' }).add('silent', () => void JSON.parse('[1]')), 'g / silent');
    const b = await digestOf('aaaa', () => new tinybench.Bench({ name: 'g' }).add('silent', () => void JSON.parse('[2]')), 'g / silent');
    const other = await digestOf('bbbb', () => new tinybench.Bench({ name: 'g' }).add('silent', () => void JSON.parse('[1]')), 'g / silent');
    expect(a.digest.summary).toBe('ReturnedNothing{3 keys}');
    expect(b.digest.hash).toBe(a.digest.hash);
    expect(other.digest.hash).not.toBe(a.digest.hash);
  });

  it('says in one warning what was proven and what was not, with the sha of the source', async () => {
    const { warnings } = await digestOf('aaaa', () => mitata.bench('silent', () => void JSON.parse('[1]')), 'silent');
    expect(warnings).toEqual([expect.stringMatching(/^returns nothing \(undefined\): the check .* compares what can be proven without a value — the same source \(sha256 aaaa .*\), the same case with the same inputs, a first call that completed — and not a result.*do_not_optimize\(\)/)]);
  });

  it('differs from the same case on a runtime where it returns a value: different work', async () => {
    const nothing = await digestOf('aaaa', () => mitata.bench('x', () => undefined), 'x');
    const something = await digestOf('aaaa', () => mitata.bench('x', () => 1), 'x');
    expect(something.digest.summary).toBe('number 1');
    expect(something.digest.hash).not.toBe(nothing.digest.hash);
    expect(something.warnings).toEqual([]);
  });

  it('a planted difference where a case returns a value is still seen, beside cases that return nothing', async () => {
    const file = (planted: number) => () => {
      const bench = new tinybench.Bench({ name: 'g' });
      bench.add('silent', () => void JSON.parse('[1]'));
      bench.add('counts', () => JSON.parse(`[${planted}]`) as unknown);
    };
    const [silentA, silentB] = [await digestOf('aaaa', file(1), 'g / silent'), await digestOf('aaaa', file(2), 'g / silent')];
    const [countsA, countsB] = [await digestOf('aaaa', file(1), 'g / counts'), await digestOf('aaaa', file(2), 'g / counts')];
    expect(silentB.digest.hash).toBe(silentA.digest.hash);
    expect(countsB.digest.hash).not.toBe(countsA.digest.hash);
  });

  it("keeps each case's own inputs apart: the same body under two args digests twice", async () => {
    const declare = () => mitata.bench('n=$n', () => undefined).args('n', [1, 2]);
    const one = await digestOf('aaaa', declare, 'n=1');
    const two = await digestOf('aaaa', declare, 'n=2');
    expect(one.digest.hash).not.toBe(two.digest.hash);
  });

  it("a generator case's setup and teardown still run around it", async () => {
    const seen: string[] = [];
    await digestOf(
      'aaaa',
      () =>
        mitata.bench('gen', function* () {
          seen.push('setup');
          yield () => undefined;
          seen.push('teardown');
        }),
      'gen',
    );
    expect(seen).toEqual(['setup', 'teardown']);
  });
});
