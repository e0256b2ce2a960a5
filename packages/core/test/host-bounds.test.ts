/** A saved run's machine facts are bounded as a real run's are: a run past them is refused in one line naming the field. */
import { describe, expect, it } from 'vitest';
import { syntheticRun } from '../../../test/compare-synthetic.ts';
import { MAX_HOST_TEXT, MAX_MACHINE_POINTS, parseRun } from '../src/schema.ts';

const run = (): ReturnType<typeof syntheticRun> => syntheticRun({ cases: [{ id: 'a', ns: 100 }], arms: [{ id: 'node', factor: 1 }], rounds: 2 });
const point = (i: number) => ({ atMs: i, load1: 1, busy: 1, steal: 0 });

describe('bounded machine facts in a saved run', () => {
  it('reads a run with as many machine points and as long a field as a real run holds', () => {
    const r = run();
    const json = { ...r, host: { ...r.host, cpuModel: 'x'.repeat(MAX_HOST_TEXT), machine: { intervalMs: 1000, points: Array.from({ length: MAX_MACHINE_POINTS }, (_, i) => point(i)) } } };
    expect(parseRun(JSON.parse(JSON.stringify(json)), 'run.json').host.machine!.points).toHaveLength(MAX_MACHINE_POINTS);
  });

  it('refuses half a million points, or a 20-million-character field, in one line naming where', () => {
    const r = run();
    const points = { ...r, host: { ...r.host, machine: { intervalMs: 1000, points: Array.from({ length: 500_000 }, (_, i) => point(i)) } } };
    expect(() => parseRun(points, 'many.json')).toThrow(/^many\.json is not a valid rtbench run: .*host\.machine\.points[^\n]*$/);
    const long = { ...r, host: { ...r.host, cpuModel: 'x'.repeat(20_000_000) } };
    expect(() => parseRun(long, 'long.json')).toThrow(/^long\.json is not a valid rtbench run: .*host\.cpuModel[^\n]*$/);
    const env = { ...r, host: { ...r.host, env: { NODE_OPTIONS: 'y'.repeat(MAX_HOST_TEXT + 1) } } };
    expect(() => parseRun(env, 'env.json')).toThrow(/host\.env\.NODE_OPTIONS/);
  });

  it("refuses a runtime's version, engine version, binary or display name past the bound, naming the variant's field", () => {
    const long = 'v'.repeat(MAX_HOST_TEXT + 1);
    for (const [field, value] of [
      ['version', long],
      ['engineVersion', long],
      ['binary', long],
      ['binarySha256', long],
      ['displayNames', { runtime: long }],
    ] as const) {
      const r = run();
      const json = { ...r, variants: [{ ...r.variants[0]!, [field]: value }] };
      expect(() => parseRun(json, 'v.json'), field).toThrow(new RegExp(`^v\\.json is not a valid rtbench run: .*variants\\.0\\.${field}[^\\n]*$`));
    }
    const r = run();
    const within = { ...r, variants: [{ ...r.variants[0]!, version: 'v'.repeat(MAX_HOST_TEXT), displayNames: { runtime: 'Node.js', engine: 'V8' } }] };
    expect(parseRun(JSON.parse(JSON.stringify(within)), 'v.json').variants[0]!.version).toHaveLength(MAX_HOST_TEXT);
  });
});
