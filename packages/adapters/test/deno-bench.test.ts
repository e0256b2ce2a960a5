/**
 * Deno.bench under rtbench: every call form, groups, ignore/only, a function
 * timed whole, and manual timing with b.start()/b.end() read on a clock that
 * moves only when the case says so.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ofType } from './run-case.ts';

type Adapter = typeof import('../src/deno-bench.ts');
type Registry = typeof import('../src/registry.ts');
type RunCase = typeof import('./run-case.ts');

let deno: Adapter;
let registry: Registry;
let harness: RunCase;

beforeEach(async () => {
  vi.resetModules();
  deno = await import('../src/deno-bench.ts');
  registry = await import('../src/registry.ts');
  harness = await import('./run-case.ts');
});

const load = (declare: () => unknown) => registry.broughtSuite('t', async () => declare());

describe('Deno.bench', () => {
  it('every call form declares a case named as deno bench names it, its group as the group; ignore leaves it out with a note', async () => {
    const suite = await load(() => {
      deno.bench('plain', () => 1);
      deno.bench('with options', { group: 'g', baseline: true }, () => 2);
      deno.bench(function fromName() {
        return 3;
      });
      deno.bench({ name: 'definition', group: 'g', fn: () => 4 });
      deno.bench({ name: 'options then fn' }, () => 5);
      deno.bench('skipped', { ignore: true }, () => 6);
    });
    expect(suite.cases().map((c) => c.id)).toEqual(['plain', 'g / with options', 'fromName', 'g / definition', 'options then fn']);
    expect(suite.notes).toContainEqual(expect.stringMatching(/^ignored: skipped/));
    expect(suite.notes).toContainEqual(expect.stringMatching(/^baseline: with options/));
    expect(() => deno.bench(() => 1)).toThrow('must have a name');
  });

  it('only: the others are left out', async () => {
    const suite = await load(() => {
      deno.bench('a', () => 1);
      deno.bench('b', { only: true }, () => 2);
    });
    expect(suite.cases().map((c) => c.id)).toEqual(['b']);
  });

  it('a function that calls b.start()/b.end() is timed between them, one operation per call; one that does not is timed whole and digested', async () => {
    const suite = await load(() => {
      deno.bench('manual', (b) => {
        harness.virtualTime.ns += 1e5;
        b.start();
        harness.virtualTime.ns += 300;
        b.end();
      });
      deno.bench('whole', () => 'value');
    });
    const manual = ofType(await harness.runCaseOnVirtualClock(suite, 'manual'), 'result')[0]!;
    for (const sample of manual.samples) expect(sample).toBeCloseTo(301, 6);
    const whole = ofType(await harness.runCase(suite, 'whole'), 'result')[0]!;
    expect(whole.digest.summary).toBe('string(5)');
  });
});
