/**
 * The sentences under a table (cells/run.ts), as a reader reads them: the key
 * and the --explain legend of a bench table, with its level, its words, its
 * marks and its budget; a comparison's key, design line and legend, paired
 * and unpaired; a small change's side; the hosts and where the instructions
 * moved. Each expected text is the sentence the docs promise, written out.
 */
import { describe, expect, it } from 'vitest';
import { comparePaired, compareUnpaired } from '@rtbench/stats';
import type { Metric } from '@rtbench/core/schema';
import { syntheticRun } from '../../../test/compare-synthetic.ts';
import { benchView } from '../src/index.ts';
import { terminalReporter } from '../src/reporters/terminal.ts';
import { benchCells, benchFacts, benchGeomeanLine, benchKey, budgetLine, benchLegend, benchResultRow, comparisonCells, comparisonKey, designLine, hostLines, legend, relativeText, whereText } from '../src/cells/run.ts';
import type { BenchRow, BenchView, CaseComparison, ComparisonView } from '../src/views/types.ts';
import type { RatioComparison } from '@rtbench/verdicts';

const INSTRUCTIONS: Metric = { name: 'instructions', unit: 'instructions', direction: 'lower-is-better' };

/** A paired comparison whose log ratios are `d`. */
const paired = (d: readonly number[]): RatioComparison => ({ ...comparePaired(d.map(() => 1), d.map(Math.exp)), qValue: 0.01 });

function twoArms(cases = 1): BenchView {
  return benchView(syntheticRun({ cases: Array.from({ length: cases }, (_, i) => ({ id: `c${i}`, ns: 1000 })), arms: [{ id: 'node', factor: 1 }, { id: 'node@24', factor: 1.2 }], rounds: 6 }));
}

/** A row whose rounds stopped as `precision` says (a view keeps it on the row and on its result). */
const stopped = (row: BenchRow, precision: NonNullable<BenchRow['precision']>): BenchRow => ({ ...row, precision, result: { ...row.result, precision } });

/** A ratio whose interval straddles 1 and the threshold: undecided. */
const undecidedRatio = paired([0.1, -0.08, 0.05, -0.12, 0.09, -0.04]);

/** The terminal table's line on the rows marked `*` (counted by the grid that marks them), or undefined. */
const budgetLineUnder = (view: BenchView): string | undefined =>
  terminalReporter
    .render(view, { color: false, columns: 200 })
    .split('\n')
    .find((l) => l.startsWith('* '));

const WORDS_MARKS = 'faster/slower: excludes 1, change >1%; "faster <1%": excludes 1, change less; =: within ±1%; undecided: holds 1';

describe("a bench table's key", () => {
  it('gives the intervals\' level over the ratios, the words read from them, and where the method is', () => {
    expect(benchKey(twoArms())).toBe(`95% intervals (95% over 1 ratio): ${WORDS_MARKS}. --explain: the method.`);
    // Two ratios, both selected: the false-coverage-adjusted level is 1 − 2·5%/2, so 95% again, counted over 2.
    expect(benchKey(twoArms(2))).toBe(`95% intervals (95% over 2 ratios): ${WORDS_MARKS}. --explain: the method.`);
  });

  it('names the marks the table uses', () => {
    expect(benchKey(twoArms(), 'marks ~ ↗')).toBe(`95% intervals (95% over 1 ratio): ${WORDS_MARKS}. --explain: the method, marks ~ ↗.`);
  });

  it('marks only the rows the budget left undecided, and counts them once in a line of their own', () => {
    const view = twoArms(3);
    view.run.options = { ...view.run.options, adaptive: { target: 0.02, minRounds: 6, maxRounds: 30, budgetMs: 60_000 } };
    const ranOut = { target: 0.02, reached: 0.05, rounds: 30, stoppedBy: 'max-rounds' } as const;
    // Out of budget but decided ("slower"), and the baseline: nothing for the reader to act on, no mark.
    view.cases[0]!.rows = view.cases[0]!.rows.map((r) => stopped(r, ranOut));
    expect(view.cases[0]!.rows.map((r) => benchCells(r, false).rounds)).toEqual(['6', '6']);
    expect(budgetLineUnder(view)).toBeUndefined();
    // Undecided when the budget ran out: marked, and counted.
    for (const c of view.cases.slice(1)) c.rows[1] = { ...stopped(c.rows[1]!, ranOut), relative: undecidedRatio };
    expect(benchCells(view.cases[1]!.rows[1]!, false)).toMatchObject({ rounds: '6*', budgetMarked: true });
    expect(budgetLineUnder(view)).toBe('* 2 rows undecided within --max-rounds 30 / --max-time 60 s: raise --max-rounds to decide them');
    // The limit each marked row stopped at is the option that would decide it.
    view.cases[1]!.rows[1] = stopped(view.cases[1]!.rows[1]!, { ...ranOut, stoppedBy: 'time-budget' });
    expect(budgetLineUnder(view)).toBe('* 2 rows undecided within --max-rounds 30 / --max-time 60 s: raise --max-time (1 row) or --max-rounds (1) to decide them');
    view.cases[2]!.rows[1] = stopped(view.cases[2]!.rows[1]!, { ...ranOut, stoppedBy: 'time-budget' });
    expect(budgetLineUnder(view)).toBe('* 2 rows undecided within --max-rounds 30 / --max-time 60 s: raise --max-time to decide them');
    // Undecided within the budget (it stopped at its target): no mark.
    view.cases[2]!.rows[1] = stopped(view.cases[2]!.rows[1]!, { ...ranOut, stoppedBy: 'target' });
    expect(benchCells(view.cases[2]!.rows[1]!, false)).toMatchObject({ rounds: '6', budgetMarked: false });
    expect(budgetLineUnder(view)).toBe('* 1 row undecided within --max-rounds 30 / --max-time 60 s: raise --max-time to decide it');
    expect(budgetLine(view, 0)).toBeUndefined();
    // The key leaves the mark to that line.
    expect(benchKey(view)).toBe(`95% intervals (95% over 3 ratios): ${WORDS_MARKS}. --explain: the method.`);
  });

  it('counts in fewer/more, and with no ratio names the medians\' level, or only where the method is without an interval', () => {
    const view = twoArms();
    const counts = { ...view, run: { ...view.run, cases: view.run.cases.map((c) => ({ ...c, metric: INSTRUCTIONS })) } };
    expect(benchKey(counts)).toBe('95% intervals (95% over 1 ratio): fewer/more: excludes 1, change >1%; "fewer <1%": excludes 1, change less; =: within ±1%; undecided: holds 1. --explain: the method.');
    const alone = { ...view, cases: view.cases.map((c) => ({ ...c, rows: c.rows.map((r) => ({ ...r, relative: undefined })) })) };
    // No ratio: the medians' intervals alone, at the table's level.
    expect(benchKey(alone)).toBe('95% intervals. --explain: the method.');
    const noCi = { ...alone, cases: alone.cases.map((c) => ({ ...c, rows: c.rows.map((r) => ({ ...r, stats: r.stats && { ...r.stats, ci: undefined } })) })) };
    expect(benchKey(noCi)).toBe('--explain: the method.');
  });
});

describe("a bench table's legend (--explain)", () => {
  it('says how each cell was computed, the pairing, and how a word is read from its interval', () => {
    const lines = benchLegend(twoArms());
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(
      "vs node: time against node's, paired set by set, said as a factor of at least 1 and its direction. [low–high] is the interval over independent process pairs at 95% (95% adjusted for the table's 1 comparison), and the word is read from it: " +
        'faster/slower when it excludes 1 and the change exceeds 1%, "faster <1%" when it excludes 1 with a smaller change, "=" when it lies within ±1%, "undecided" otherwise.',
    );
  });

  it('says the adaptive rule, and which rows its budget cut short', () => {
    const view = twoArms(2);
    view.run.options = { ...view.run.options, adaptive: { target: 0.02, minRounds: 6, maxRounds: 30, budgetMs: 60_000 } };
    expect(benchLegend(view)[2]).toBe("rounds: 6 or more, added per case until every ratio's CI is within ±2.0%; every case reached it within the budget (--max-rounds 30 / --max-time 60 s)");
    const ranOut = { target: 0.02, reached: 0.04, rounds: 9, stoppedBy: 'time-budget' } as const;
    view.cases[1]!.rows = view.cases[1]!.rows.map((r) => stopped(r, ranOut));
    expect(benchLegend(view)[2]).toBe("rounds: 6 or more, added per case until every ratio's CI is within ±2.0%; the budget (--max-rounds 30 / --max-time 60 s) ran out first on 2 rows");
    view.cases[0]!.rows[1] = { ...stopped(view.cases[0]!.rows[1]!, ranOut), relative: undecidedRatio };
    expect(benchLegend(view)[2]).toBe(
      "rounds: 6 or more, added per case until every ratio's CI is within ±2.0%; the budget (--max-rounds 30 / --max-time 60 s) ran out first on 3 rows; 1 of them undecided, marked *: more budget could decide them",
    );
  });

  it('under --stop decided, says its intervals are confidence sequences and that rounds go on while a ratio is undecided', () => {
    const view = twoArms();
    view.run.options = { ...view.run.options, adaptive: { target: 0.02, minRounds: 8, maxRounds: 30, budgetMs: 60_000, rule: 'decided' } };
    const lines = benchLegend(view);
    expect(lines[2]).toMatch(/^The run stopped each case when decided, so each interval is a confidence sequence \(Lai's, valid at every look\)/);
    expect(lines[3]).toBe("rounds: 8 or more, added per case while a ratio of it is undecided on its interval valid at every look and within the budget's reach; every case reached it within the budget (--max-rounds 30 / --max-time 60 s)");
    // Without a ratio, no interval to speak of.
    expect(benchLegend({ ...view, cases: view.cases.map((c) => ({ ...c, rows: c.rows.map((r) => ({ ...r, relative: undefined })) })) }).some((l) => l.includes('confidence sequence'))).toBe(false);
  });

  it("counts the rows marked * without naming a budget when the run's options keep none", () => {
    expect(budgetLine(twoArms(), 2)).toBe('* 2 rows undecided within the budget: more could decide them');
  });
});

describe('a small change', () => {
  const candidate = twoArms().cases[0]!.rows[1]! as BenchRow;

  it('is named by its side: a small slowdown is "slower <1%", never turned over', () => {
    const slower = paired([0.004, 0.005, 0.006, 0.0045, 0.0055, 0.005]);
    expect(slower.verdict).toBe('small');
    expect(relativeText({ ...candidate, relative: slower }, false)).toEqual({ relative: '1.005× slower <1% [1.004–1.006]', verdict: 'small' });
  });

  it('a small speed-up is turned over and "faster <1%"', () => {
    const faster = paired([-0.004, -0.005, -0.006, -0.0045, -0.0055, -0.005]);
    expect(faster.verdict).toBe('small');
    expect(relativeText({ ...candidate, relative: faster }, false)).toEqual({ relative: '1.005× faster <1% [1.004–1.006]', verdict: 'small' });
  });

  it('a wide interval keeps two digits, a narrow one three', () => {
    expect(relativeText({ ...candidate, relative: paired([0.3, 0.31, 0.29, 0.3, 0.32, 0.28]) }, false).relative).toBe('1.35× slower [1.33–1.37]');
  });
});

describe("a comparison's sentences", () => {
  const run = syntheticRun({ mode: 'compare', cases: [{ id: 'parse', ns: 1000 }], arms: [{ id: 'node@24', factor: 1 }, { id: 'node@26', factor: 1 }], rounds: 20 });
  const arm = { id: 'node@24', label: 'node@24', runtime: 'node', versionText: 'Node.js 24', version: '24', engine: 'v8', engineVersion: '13', flags: [], env: {} } as unknown as ComparisonView['arms'][number];
  const view = (comparison: RatioComparison | undefined, over: Partial<ComparisonView> = {}): ComparisonView =>
    ({
      kind: 'comparison',
      pairing: 'paired',
      run,
      runs: [],
      suite: 's',
      threshold: 0.01,
      confidence: 0.95,
      fdrAlpha: 0.05,
      method: 'paired t over process pairs',
      arms: [arm, { ...arm, id: 'node@26', label: 'node@26' }],
      sections: [{ baseline: arm, candidate: { ...arm, id: 'node@26', label: 'node@26' }, cases: [{ caseId: 'parse', label: 'parse', comparison }] }],
      ...over,
    }) as unknown as ComparisonView;
  const decided = paired([0.2, 0.21, 0.19, 0.2, 0.22, 0.18]);

  it('its key: the level and the words; only the hint when nothing was compared', () => {
    expect(comparisonKey(view(decided))).toBe('95% intervals (95% over 1 ratio): faster/slower: excludes 1, change >1%; "faster <1%": excludes 1, change less; equivalent: within ±1%; inconclusive: undecided. --explain: the method.');
    expect(comparisonKey(view(undefined))).toBe('--explain: the method.');
  });

  it('its legend, paired and unpaired (each run\'s processes), with the q column', () => {
    const sentence = (units: string): string =>
      `[low–high] is the interval over ${units} at 95% (95% adjusted for the table's 1 comparison), and the word is read from it: faster/slower when it excludes 1 and the change exceeds 1%, "faster <1%" when it excludes 1 with a smaller change, equivalent when it lies within ±1%, inconclusive otherwise.`;
    const head = 'ratio = candidate time / baseline time (< 1: the candidate is faster); paired t over process pairs.';
    expect(legend(view(decided))).toBe(`${head} ${sentence('independent process pairs')} q: Benjamini–Hochberg over the 1 comparison.`);
    const unpaired = { ...compareUnpaired([1, 1.1, 1.05, 0.95], [1.3, 1.4, 1.35, 1.25]), qValue: 0.02 };
    expect(legend(view(unpaired, { pairing: 'unpaired' }))).toBe(`${head} ${sentence("each run's processes")} q: Benjamini–Hochberg over the 1 comparison.`);
    expect(legend(view(undefined))).toBe(head);
  });

  it('in fewer/more when a case counts instructions, and with no section at all only the hint', () => {
    const counted = view(decided);
    counted.sections[0]!.cases = [{ caseId: 'time', label: 'time' }, { ...counted.sections[0]!.cases[0]!, metric: INSTRUCTIONS }] as ComparisonView['sections'][number]['cases'];
    expect(comparisonKey(counted)).toContain('fewer/more: excludes 1');
    expect(legend(counted)).toMatch(/^ratio = candidate instructions \/ baseline instructions \(< 1: the candidate executes fewer\)/);
    const none = view(undefined, { sections: [] });
    expect(comparisonKey(none)).toBe('--explain: the method.');
    expect(legend(none)).toBe('ratio = candidate time / baseline time (< 1: the candidate is faster); paired t over process pairs.');
  });

  it('its design line: the rounds the cases had (adaptive with its plan and target), or the two saved runs it reads', () => {
    expect(designLine(view(decided))).toMatch(/^20 rounds in a balanced order of arms; .+\.$/);
    const adaptive = { ...run, options: { ...run.options, adaptive: { target: 0.02, minRounds: 30, maxRounds: 60 } } };
    expect(designLine(view(decided, { run: adaptive }))).toMatch(/^20 rounds \(adaptive: planned 30–60, target ±2.0%\) in a balanced order of arms; /);
    // A merged run: the rounds each case had, not the options' count.
    const merged = { ...run, results: run.results.map((r, i) => (i === 0 ? { ...r, rounds: r.rounds.slice(0, 6) } : r)) };
    expect(designLine(view(decided, { run: merged }))).toMatch(/^6–20 rounds a case in a balanced order of arms; /);
    const saved = [
      { file: 'a.json', run },
      { run: { ...run, id: 'run-b', startedAt: '2026-02-02T00:00:00.000Z' } },
    ];
    expect(designLine(view(decided, { pairing: 'unpaired', runs: saved } as Partial<ComparisonView>))).toBe(
      'two saved runs, not interleaved: a.json (20 rounds, 2026-01-01T00:00:00.000Z) and run-b (20 rounds, 2026-02-02T00:00:00.000Z).',
    );
  });
});

describe('hosts and where the instructions moved', () => {
  const run = syntheticRun({ cases: [{ id: 'c', ns: 1000 }], arms: [{ id: 'node', factor: 1 }], rounds: 2 });

  it('one line per host, naming the platform only when the runs come from several', () => {
    expect(hostLines({ run })).toEqual(['Synthetic CPU, 2 cores, load 0.00 0.00 0.00']);
    expect(hostLines({ run, runs: [{ run }, { run }] })).toEqual(['Synthetic CPU, 2 cores, load 0.00 0.00 0.00']);
    const mac = { ...run, host: { ...run.host, os: 'darwin', arch: 'arm64', loadavg: [1, 0.5, 0.25] } };
    expect(hostLines({ run, runs: [{ run }, { run: mac }] })).toEqual(['Synthetic CPU, 2 cores, linux-x64, load 0.00 0.00 0.00', 'Synthetic CPU, 2 cores, darwin-arm64, load 1.00 0.50 0.25']);
  });

  it('each function with its signed change and both sides, "–" for a side it is absent from', () => {
    const shifts = [
      { name: 'grew', baseline: 100, candidate: 150 },
      { name: 'gone', baseline: 2000, candidate: undefined },
    ] as Parameters<typeof whereText>[0];
    expect(whereText(shifts)).toBe('grew +50.0 (100 → 150), gone −2.000K (2.000K → –)');
    expect(whereText(shifts, (n) => `\`${n}\``)).toBe('`grew` +50.0 (100 → 150), `gone` −2.000K (2.000K → –)');
    // A function listed with no change reads ±0, not −0.
    expect(whereText([{ name: 'same', baseline: 100, candidate: 100 }] as Parameters<typeof whereText>[0])).toBe('same ±0.00 (100 → 100)');
  });
});

describe('a ratio without a verdict word (an arm without work)', () => {
  const candidate = twoArms().cases[0]!.rows[1]! as BenchRow;

  it('is shown as measured, this arm over the baseline, never turned over; narrow intervals to three digits', () => {
    const faster = paired([-0.3, -0.31, -0.29, -0.3, -0.32, -0.28]);
    expect(relativeText({ ...candidate, relative: faster, noVerdictWord: true }, false)).toEqual({ relative: '0.74× [0.73–0.75]', verdict: 'inconclusive' });
    const narrow = paired([0.004, 0.005, 0.006, 0.0045, 0.0055, 0.005]);
    expect(relativeText({ ...candidate, relative: narrow, noVerdictWord: true }, false)).toEqual({ relative: '1.005× [1.004–1.006]', verdict: 'inconclusive' });
  });

  it('says how few units when there is no interval', () => {
    const two = { ...comparePaired([1, 1], [1.1, 1.2]), qValue: 1 };
    expect(Number.isFinite(two.ci[1])).toBe(false);
    expect(relativeText({ ...candidate, relative: two, noVerdictWord: true }, false)).toEqual({ relative: `${two.ratio.toFixed(2)}× (no interval: 2 process pairs)`, verdict: 'inconclusive' });
  });
});

describe('a row as the columns read it', () => {
  const view = twoArms();
  const [base, candidate] = view.cases[0]!.rows as [BenchRow, BenchRow];

  it('carries its ratio against the named baseline, and a dash only for a row that was measured but not compared', () => {
    const row = benchResultRow(candidate, false, 'run-1', 'node');
    expect(row.runId).toBe('run-1');
    expect(row.against).toEqual({ baseline: 'node', ratio: candidate.relative });
    expect(benchResultRow(candidate, false, 'run-1').against).toBeUndefined();
    expect(benchResultRow(base, false, 'run-1', 'node').against).toBeUndefined();
    expect(relativeText({ ...candidate, relative: undefined, relativeNote: 'not measured', stats: undefined }, false)).toEqual({ relative: '' });
    expect(relativeText({ ...candidate, relative: undefined }, false)).toEqual({ relative: '' });
    expect(benchResultRow({ ...candidate, stats: undefined }, false).relative).toEqual({ text: '' });
  });

  it("the table's facts: not a comparison, its own metric when any case has one, adaptive when the run was", () => {
    expect(benchFacts(view)).toMatchObject({ baseline: 'node', comparison: false, ownMetric: false, adaptive: false });
    const mixed = { ...view, run: { ...view.run, cases: [{ ...view.run.cases[0]!, metric: INSTRUCTIONS }, { id: 'other', name: 'other', params: {} }], options: { ...view.run.options, adaptive: { target: 0.02, minRounds: 6, maxRounds: 30 } } } };
    expect(benchFacts(mixed, 'a')).toMatchObject({ baseline: 'a', ownMetric: true, adaptive: true });
  });

  it('the geomean line names the baseline and each arm with its interval and cases', () => {
    const line = benchGeomeanLine(twoArms(2));
    expect(line).toMatch(/^geomean of the ratios vs node: node@24 1\.\d+× slower \[1\.\d+–1\.\d+\] over 2 cases$/);
    expect(benchGeomeanLine({ ...view, geomeans: [] })).toBeUndefined();
  });
});

describe('the comparison cells at their edges', () => {
  const row = (c: RatioComparison | undefined, extra: Partial<CaseComparison> = {}): CaseComparison => ({ caseId: 'c', label: 'c', ...(c ? { comparison: c } : {}), ...extra });

  it('a dash for a side without a median; no q, the note, when not compared', () => {
    expect(comparisonCells(row(undefined), { pairing: 'paired', threshold: 0.01 })).toEqual({ baseline: '—', candidate: '—', ratio: '', verdict: '—', word: '—', detail: '', q: '' });
  });

  it('an undecided ratio that already has the units it would need is called too noisy, not "~0 more"', () => {
    const c = paired([0.02, -0.01, 0.03, -0.02]);
    expect(c.verdict).toBe('inconclusive');
    expect(comparisonCells(row({ ...c, unitsToDecide: c.units }), { pairing: 'paired', threshold: 0.01 }).detail).toBe('needs >100× the processes for ±1%');
    expect(comparisonCells(row({ ...c, unitsToDecide: c.units + 1 }), { pairing: 'unpaired', threshold: 0.01 }).detail).toBe('~1 more process a run to decide');
  });

  it('an arm without work: its ratio, no verdict, said below', () => {
    const c = paired([0.2, 0.21, 0.19, 0.2, 0.22, 0.18]);
    expect(comparisonCells(row(c, { withoutWork: { candidate: 'returns undefined' } }), { pairing: 'paired', threshold: 0.01 })).toMatchObject({ verdict: 'without-work', detail: 'without work: no verdict (said below)', q: '0.010' });
  });

  it('a decided speed-up is "faster" with its change', () => {
    const c = paired([-0.2, -0.21, -0.19, -0.2, -0.22, -0.18]);
    expect(comparisonCells(row(c), { pairing: 'paired', threshold: 0.01 })).toMatchObject({ verdict: 'faster', word: 'faster', detail: expect.stringMatching(/^−1\d(\.\d)?%$/) });
  });
});


describe('the sentences at their edges', () => {
  it('an interval narrower than 0.02 gets a third digit though two would tell its bounds apart', () => {
    const candidate = twoArms().cases[0]!.rows[1]! as BenchRow;
    const c = paired([0.1, 0.1015, 0.0985, 0.1, 0.101, 0.099].map((x) => Math.log(1 + x)));
    expect(c.ci[1] - c.ci[0]).toBeLessThan(0.02);
    expect(relativeText({ ...candidate, relative: c }, false).relative).toMatch(/^1\.100× slower \[1\.09\d–1\.10\d\]$/);
    expect(relativeText({ ...candidate, relative: c, noVerdictWord: true }, false).relative).toMatch(/^1\.100× \[1\.09\d–1\.10\d\]$/);
  });

  it('a geomean line with several arms, one part each, in order', () => {
    const view = benchView(syntheticRun({ cases: [{ id: 'a', ns: 1000 }, { id: 'b', ns: 2000 }], arms: [{ id: 'node', factor: 1 }, { id: 'deno', factor: 1.2 }, { id: 'bun', factor: 0.8 }], rounds: 6 }));
    expect(benchGeomeanLine(view)).toMatch(/^geomean of the ratios vs node: deno 1\.\d+× slower \[[\d.]+–[\d.]+\] over 2 cases; bun 1\.\d+× faster \[[\d.]+–[\d.]+\] over 2 cases$/);
  });

  it('a row given no run id names none', () => {
    expect(benchResultRow(twoArms().cases[0]!.rows[1]!, false).runId).toBe('');
  });

  it('a table or comparison with no case at all: only where the method is, and no crash', () => {
    const view = twoArms();
    const empty = { ...view, cases: [], run: { ...view.run, cases: [] } };
    expect(benchKey(empty)).toBe('--explain: the method.');
    expect(benchLegend(empty)).toHaveLength(1);
  });
});
