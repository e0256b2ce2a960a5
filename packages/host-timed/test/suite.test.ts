import { describe, expect, it } from 'vitest';
import { generateModule } from '../../../bench/cold-start/src/generate.ts';
import type { RuntimePlugin } from '@rtbench/runtime-kit';
import { hostTimedSuite, isHostCaseSpec, LOAD_PROFILES, type LoadMeasurement, type LoadServer } from '../src/index.ts';
import { servedBy } from '../src/served.ts';

const load: LoadMeasurement = { kind: 'load', name: 'hello', params: {}, server: { program: '/dev/null' }, request: { method: 'GET', path: '/' }, load: LOAD_PROFILES.c1 };

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

  it('refuses a load profile of no connections, or of no requests on each', () => {
    expect(() => hostTimedSuite('s', [{ ...load, load: { name: 'c0', connections: 0, pipelining: 1 } }])).toThrow('suite "s": "hello" loads with connections 0 (profile c0): connections is a whole number of at least 1');
    expect(() => hostTimedSuite('s', [{ ...load, load: { name: 'x', connections: 10, pipelining: 0.5 } }])).toThrow(/pipelining 0\.5/);
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

describe('servedBy', () => {
  const server: LoadServer = { handler: '/s/handler.ts', nodeHttp: '/s/node-http.ts' };
  const plugin = (programs: object): Pick<RuntimePlugin, 'programs' | 'displayName'> => ({ displayName: 'a runtime', programs: programs as RuntimePlugin['programs'] });

  it('chooses the program by what the plug-in declares, never by its name', () => {
    expect(servedBy(server, plugin({ kind: 'server' }))).toEqual({ file: '/s/handler.ts', wrapper: 'server-handler' });
    expect(servedBy(server, plugin({ kind: 'process', fetchServer: '/r/serve-fetch.ts' }))).toEqual({ file: '/s/handler.ts', wrapper: 'load-server' });
    expect(servedBy(server, plugin({ kind: 'process' }))).toEqual({ file: '/s/node-http.ts', wrapper: 'none' });
    // No node:http program given: the handler on node:http through the fetch adapter.
    expect(servedBy({ handler: '/s/handler.ts' }, plugin({ kind: 'process' }))).toEqual({ file: '/s/handler.ts', wrapper: 'load-server' });
  });

  it('a program that prints its port runs where programs run; a runtime that serves modules says it cannot', () => {
    expect(servedBy({ program: '/s/p.ts' }, plugin({ kind: 'process' }))).toEqual({ file: '/s/p.ts', wrapper: 'none' });
    expect(servedBy({ program: '/s/p.ts' }, plugin({ kind: 'server' }))).toEqual({ unsupported: 'this server is a program that prints its port; a runtime serves modules (a fetch handler)' });
  });
});
