import { describe, expect, it } from 'vitest';
import { syntheticRun } from '../../../test/compare-synthetic.ts';
import { comparisonCells, formatChange, formatQ, formatRatio } from '../src/cells/run.ts';
import { renderComparisonMarkdown } from '../src/reporters/markdown.ts';
import { renderComparisonTerminal } from '../src/reporters/terminal.ts';
import type { ArmInfo, ComparisonView } from '../src/views/types.ts';

const arm = (id: string, version: string, engineVersion: string, flags: string[] = [], hash = 'c'.repeat(64)): ArmInfo => ({
  id,
  label: id,
  runtime: 'node',
  versionText: `Node.js ${version}, V8 ${engineVersion}`,
  version,
  engine: 'v8',
  engineVersion,
  flags,
  env: {},
  binarySha256: hash,
});

const base = { threshold: 0.01, n: 20, units: 20, confidence: 0.95, inference: { estimate: 0, se: 0.01, df: 19, units: 20 }, method: 'paired', pValue: 0.0001, qValue: 0.0004 };

const run = {
  ...syntheticRun({ mode: 'compare', cases: [{ id: 'parse', ns: 1000 }], arms: [{ id: 'node@24', factor: 1 }, { id: 'node@26 --max-semi-space-size=64', factor: 1 }], rounds: 20 }),
  command: ['bench', 'json-reviver', '--compare', 'node@24', 'node@26 --max-semi-space-size=64'],
  host: { os: 'linux', release: '6', arch: 'x64', cpuModel: 'Test CPU', cores: 2, memoryBytes: 1e9, loadavg: [1, 1, 1], hostNode: '24.0.0', env: {} },
};

const report: ComparisonView = {
  kind: 'comparison',
  pairing: 'paired',
  run,
  suite: 'json-reviver',
  threshold: 0.01,
  confidence: 0.95,
  level: 0.95,
  fdrAlpha: 0.05,
  arms: [arm('node@24', '24.1.0', '13.6.233.17', [], 'a'.repeat(64)), arm('node@26 --max-semi-space-size=64', '26.0.0', '14.6.202.34', ['--max-semi-space-size=64'], 'b'.repeat(64))],
  sections: [
    {
      baseline: arm('node@24', '24.1.0', '13.6.233.17', [], 'a'.repeat(64)),
      candidate: arm('node@26 --max-semi-space-size=64', '26.0.0', '14.6.202.34', ['--max-semi-space-size=64'], 'b'.repeat(64)),
      cases: [
        { caseId: 'parse', label: 'parse', baseline: { median: 59_800, rounds: 20 }, candidate: { median: 44_200, rounds: 20 }, comparison: { ...base, ratio: 0.739, ci: [0.731, 0.748], verdict: 'faster' } },
        { caseId: 'stringify', label: 'stringify', baseline: { median: 1000, rounds: 20 }, candidate: { median: 1102, rounds: 20 }, comparison: { ...base, ratio: 1.102, ci: [1.08, 1.12], verdict: 'slower' } },
        { caseId: 'same', label: 'same', baseline: { median: 1000, rounds: 20 }, candidate: { median: 1001, rounds: 20 }, comparison: { ...base, ratio: 1.001, ci: [0.995, 1.006], verdict: 'equivalent', pValue: 0.8, qValue: 0.8 } },
        { caseId: 'noisy', label: 'noisy', baseline: { median: 1000, rounds: 20 }, candidate: { median: 1020, rounds: 20 }, comparison: { ...base, ratio: 1.02, ci: [0.99, 1.05], verdict: 'inconclusive', unitsToDecide: 45, pValue: 0.2, qValue: 0.27 } },
        { caseId: 'context', label: 'context', baseline: { median: 1000, rounds: 20 }, candidate: { median: 900, rounds: 20 }, comparison: { ...base, ratio: 0.9, ci: [0.88, 0.92], verdict: 'faster' }, digests: { baseline: '1111111111111111', candidate: '2222222222222222' } },
        { caseId: 'bun only', label: 'bun only', note: 'unsupported on node@24: no such API' },
      ],
      geomean: { ratio: 0.948, ci: [0.93, 0.97], cases: 4, excluded: 1, withoutWork: 0 },
    },
  ],
  runs: [{ run }],
  notes: ['the run was interrupted: verdicts use the rounds that finished'],
  method: 'paired: Hodges–Lehmann on per-round log ratios',
};

describe('comparison cells', () => {
  it('formats ratios, changes and q-values', () => {
    expect(formatRatio(0.7391)).toBe('0.739');
    expect(formatRatio(12.34)).toBe('12.3');
    expect(formatChange(0.739)).toBe('−26%');
    expect(formatChange(1.052)).toBe('+5.2%');
    expect(formatQ(0.0004)).toBe('<0.001');
    expect(formatQ(0.0234)).toBe('0.023');
    expect(formatQ(0.8)).toBe('0.80');
  });
});

describe('inconclusive rows', () => {
  it('round a large number of process pairs to decide to two digits', () => {
    const row = { caseId: 'x', label: 'x', baseline: { median: 1, rounds: 20 }, candidate: { median: 1, rounds: 20 }, comparison: { ...base, ratio: 1, ci: [0.96, 1.05] as [number, number], verdict: 'inconclusive' as const, unitsToDecide: 935, qValue: 0.9 } };
    expect(comparisonCells(row, { pairing: 'paired', threshold: 0.01 }).detail).toBe('~920 more process pairs to decide');
    const { unitsToDecide: _, ...hopeless } = row.comparison;
    expect(comparisonCells({ ...row, comparison: hopeless }, { pairing: 'paired', threshold: 0.01 }).detail).toBe('needs >100× the processes for ±1%');
  });
});

/** Undecided rows with the longest details a comparison gives: thousands of pairs short, and beyond 100× the processes. */
const undecided = [
  { ...base, ratio: 1.01, ci: [0.96, 1.05] as [number, number], verdict: 'inconclusive' as const, unitsToDecide: 12_345, qValue: 0.9 },
  { ...base, ratio: 1.01, ci: [0.96, 1.05] as [number, number], verdict: 'inconclusive' as const, qValue: 0.9 },
];

describe('renderComparisonTable', () => {
  // --explain: the method in full under the table (the default key is tested in footer.test.ts).
  const text = renderComparisonTerminal(report, { color: false, explain: true });
  // Prose wraps at the width: compare it with its line breaks as spaces.
  const flat = text.replace(/\s+/g, ' ');
  it('has a row per case with ratio, CI, verdict and q', () => {
    expect(text).toContain('json-reviver: node@26 --max-semi-space-size=64 vs node@24 (baseline)');
    expect(text).toMatch(/^parse\n {2}59\.8 µs +44\.2 µs +0\.739 \[0\.731–0\.748\] +faster +−26% +<0\.001$/m);
    expect(text).toMatch(/^stringify\n.* slower +\+10%/m);
    expect(flat).toContain('equivalent within ±1%');
    expect(flat).toContain('inconclusive ~25 more process pairs to decide');
    expect(flat).toContain('unsupported on node@24: no such API');
  });
  it('fits 100 columns: short arm labels as heads, named in the arm lines, and what a wider terminal adds', () => {
    for (const line of text.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(100);
    // Nothing in a cell wraps: each compared case's word and its whole detail on one line, the longest details too.
    const sections = report.sections.map((s) => ({ ...s, cases: [...s.cases, ...undecided.map((comparison, i) => ({ caseId: `u${i}`, label: `u${i}`, baseline: { median: 1000, rounds: 20 }, candidate: { median: 1010, rounds: 20 }, comparison }))] }));
    const lines = renderComparisonTerminal({ ...report, sections }, { color: false, columns: 100 }).split('\n');
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(100);
    for (const row of sections[0]!.cases.filter((r) => r.comparison)) {
      const t = comparisonCells(row, report);
      expect(lines.some((l) => l.includes(t.word) && l.includes(t.detail)), t.detail).toBe(true);
    }
    expect(text).toMatch(/^ +A +B +ratio \[interval\] +verdict +q$/m);
    expect(text).toContain('  A = node@24: Node.js 24.1.0');
    expect(text).toContain('  B = node@26 --max-semi-space-size=64: Node.js 26.0.0');
    expect(flat).toMatch(/a wider terminal adds \(≥ \d+ columns: the arm names as column heads/);
    // At 200 columns the arm names are the heads and the cases a column.
    const wide = renderComparisonTerminal(report, { color: false, columns: 200 });
    expect(wide).toMatch(/^case +node@24 +node@26 --max-semi-space-size=64 +ratio \[interval\]/m);
    expect(wide).toMatch(/^parse +59\.8 µs +44\.2 µs/m);
    expect(wide).not.toContain('wider terminal');
  });
  it('gives the geomean, warns about different work, and states the rules', () => {
    expect(flat).toContain('geomean over 4 cases (1 case with different work left out): 0.948 [0.930–0.970] faster, −5.2% time');
    expect(flat).toContain('✗ different work on "context": node@24 111111111111…; node@26 --max-semi-space-size=64 222222222222…; the ratio compares');
    expect(flat).toContain('≠ work');
    expect(flat).toContain('! the run was interrupted');
    expect(flat).toContain('faster/slower when it excludes 1 and the change exceeds 1%');
    expect(flat).toContain('equivalent when it lies within ±1%, inconclusive otherwise');
    expect(flat).toContain("(95% adjusted for the table's 5 comparisons)");
    expect(flat).toContain('Benjamini–Hochberg over the 5 comparisons');
    expect(flat).toContain('20 rounds');
    // The run saved no description of its measurer: said from what it saved.
    expect(flat).toContain('100 ms of sampling per arm after 150 ms of warmup');
  });
});

describe('renderComparisonMarkdown', () => {
  const md = renderComparisonMarkdown(report);
  it('lists the arms with versions, engine versions, flags and short binary hashes', () => {
    expect(md).toContain('### rtbench compare: json-reviver — `node@26 --max-semi-space-size=64` vs `node@24`');
    expect(md).toContain('| baseline `node@24` | Node.js 24.1.0, V8 13.6.233.17 | — | `aaaaaaaaaaaa` |');
    expect(md).toContain('| candidate `node@26 --max-semi-space-size=64` | Node.js 26.0.0, V8 14.6.202.34 | `--max-semi-space-size=64` | `bbbbbbbbbbbb` |');
  });
  it('has the verdict table, geomean, warnings and the command', () => {
    expect(md).toContain('| case | `node@24` | `node@26 --max-semi-space-size=64` | ratio [interval] | verdict | q |');
    expect(md).toContain('| parse | 59.8 µs | 44.2 µs | 0.739 [0.731–0.748] | **faster** −26% | <0.001 |');
    expect(md).toContain('| noisy | 1 µs | 1.02 µs | 1.020 [0.990–1.050] | _inconclusive_ ~25 more process pairs to decide | 0.27 |');
    expect(md).toContain('| bun only | — | — |  | unsupported on node@24: no such API |  |');
    expect(md).toContain('**Geometric mean** over 4 cases (1 case with different work left out): 0.948 [0.930–0.970] faster, −5.2% time.');
    expect(md).toContain('> ⚠️ **Different work** on `context`');
    expect(md).toContain('`rtbench bench json-reviver --compare node@24 "node@26 --max-semi-space-size=64"`');
  });
});
