import { describe, expect, it } from 'vitest';
import { syntheticRun } from '../../../test/compare-synthetic.ts';
import { finishRun } from '../../cli/src/run.ts';
import { benchRows, renderBenchMarkdown, renderBenchTable, renderRunNotes } from '../src/index.ts';

/** A synthetic run with its statistics computed the way the CLI computes them. */
const run = () => {
  const r = syntheticRun({
    cases: [{ id: 'parse', ns: 1000 }, { id: 'same', ns: 500 }],
    arms: [{ id: 'node@26', factor: 1 }, { id: 'node@24', factor: 1.5, overrides: { same: { factor: 1 } } }],
    rounds: 6,
    sigma: 0.01,
  });
  finishRun(r, false);
  return r;
};

describe('bench table', () => {
  it('labels the fastest, a clear difference, and overlapping intervals', () => {
    const rows = benchRows(run());
    const label = (c: string, v: string) => rows.find((r) => r.caseId === c && r.variantId === v)!;
    expect(label('parse', 'node@26').relative).toBe(1);
    expect(label('parse', 'node@24').relative).toBeGreaterThan(1.4);
    expect(label('parse', 'node@24').distinct).toBe(true);
    const table = renderBenchTable(run());
    expect(table).toMatch(/1\.\d\d× slower/);
    expect(table).toContain('fastest');
    // Same work at the same speed: no claim of a difference.
    expect(label('same', 'node@24').distinct === false || label('same', 'node@26').distinct === false).toBe(true);
  });

  it('warns when the mean is far above the median', () => {
    const r = run();
    const stats = r.results[0]!.stats!;
    stats.mean = stats.median * 3;
    expect(renderBenchTable(r)).toContain('3.0× the median');
    expect(renderBenchMarkdown(r)).toContain('3.0× the median');
    expect(renderBenchTable(run())).not.toContain('× the median');
  });

  it('marks cases whose runtimes did different work', () => {
    const r = run();
    r.digestMismatches = [{ caseId: 'parse', digests: { 'node@26': 'a'.repeat(16), 'node@24': 'b'.repeat(16) } }];
    expect(renderBenchTable(r)).toContain('≠ work');
    expect(renderRunNotes(r)).toContain('different work on "parse"');
    expect(renderBenchMarkdown(r)).toContain('Different work');
  });
});
