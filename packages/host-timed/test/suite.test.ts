import { describe, expect, it } from 'vitest';
import { generateModule } from '../../../bench/cold-start/src/generate.ts';
import { hostTimedSuite, isHostCaseSpec, LOAD_PROFILES, type LoadMeasurement } from '../src/index.ts';

const load: LoadMeasurement = { kind: 'load', name: 'hello', params: {}, server: () => '/dev/null', request: { method: 'GET', path: '/' }, load: LOAD_PROFILES.c1 };

describe('hostTimedSuite', () => {
  it('turns a load measurement into one case per metric, and a start-up into start-up time and top-level time', () => {
    const suite = hostTimedSuite('s', [load, { kind: 'startup', group: 'g', name: 'empty', params: { cache: 'none' }, program: '/x.ts', cache: 'none', start: 'process' }]);
    const cases = suite.cases();
    const loadCases = ['req/s', 'p2.5', 'p50', 'p97.5', 'p99', 'max', 'cpu/req js', 'cpu/req', 'wake/req js', 'wake/req', 'preempt/req'].map((m) => `hello [load=c1, metric=${m}]`);
    expect(cases.map((c) => c.id)).toEqual([...loadCases, 'g / empty [cache=none]', 'g / empty [cache=none, metric=top level]']);
    expect(cases.every(isHostCaseSpec)).toBe(true);
    // Only requests/s is better higher: latencies, the server's CPU and switches per request and start-up times are costs.
    expect(cases.map((c) => (isHostCaseSpec(c) ? c.metric.direction : ''))).toEqual(['higher-is-better', ...Array<string>(12).fill('lower-is-better')]);
  });

  it('refuses two measurements with the same case id, and tells one load profile from another', () => {
    expect(() => hostTimedSuite('s', [load, load])).toThrow(/twice/);
    expect(hostTimedSuite('s', [load, { ...load, load: LOAD_PROFILES['c100-p10'] }]).cases()).toHaveLength(22);
  });
});

describe('generated cold-start modules', () => {
  it('are deterministic and close to the size asked for', () => {
    for (const bytes of [10_000, 1_000_000]) {
      const a = generateModule(bytes);
      expect(generateModule(bytes)).toBe(a);
      expect(a.length).toBeGreaterThan(bytes * 0.95);
      expect(a.length).toBeLessThan(bytes * 1.05);
    }
    expect(generateModule(10_000, 2)).not.toBe(generateModule(10_000, 1));
  });
});
