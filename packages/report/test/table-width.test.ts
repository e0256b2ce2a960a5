/**
 * Every kind of table on a 100-column terminal, with colour and without: no
 * line wider than 100 columns on screen, and the coloured text, once its
 * colour codes are taken out, is the plain text character for character (a
 * width measured on the string with its escape codes pushes the figures of
 * a coloured line out of their columns). From saved runs and made-up views.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import type { Comparison } from '@rtbench/stats';
import { claimsMatrix, type BisectResult, type TrackAnalysis } from '@rtbench/verdicts';
import type { ClaimOutcome } from '@rtbench/core/claims-schema';
import { claimsView, historyView, metricsSection, reporterFor, viewOfRun, type BisectView, type ReleaseMatrixView, type View } from '../src/index.ts';
import { terminalMetrics } from '../src/reporters/metrics.ts';
import { historyRuns } from '../../../test/history-synthetic.ts';
import { syntheticRequestRun } from '../../../test/request-synthetic.ts';

const RESULTS = join(import.meta.dirname, '../../../results');
const COLUMNS = 100;
const SGR = /\x1b\[[0-9;]*m/g;
const visible = (s: string): string => s.replace(SGR, '');
const width = (line: string): number => [...visible(line)].length;

function saved(name: string): RunRecord {
  const file = join(RESULTS, name);
  return parseRun(JSON.parse(readFileSync(file, 'utf8')), file);
}

const terminal = reporterFor('terminal')!;
const render = (view: View, color: boolean): string => terminal.render(view, { color, columns: COLUMNS });

/** A long name, as a user's own case or flag can be. */
const LONG = 'a case whose name runs on past what a line holds [size=500kb, reviver=function]';

function bisectView(): BisectView {
  const c = (ratio: number, verdict: Comparison['verdict']): Comparison => ({ ratio, ci: [ratio * 0.98, ratio * 1.02], confidence: 0.99, units: 10, inference: { estimate: Math.log(ratio), se: 0.005, df: 9, units: 10 }, pValue: 0.001, verdict, threshold: 0.05, n: 10, method: 'm' });
  const result: BisectResult = {
    releases: ['24.0.0', '25.0.0', '25.1.0', '26.0.0'],
    first: '24.0.0',
    last: '26.0.0',
    steps: [{ purpose: 'ends', older: '24.0.0', newer: '26.0.0', comparison: c(0.7, 'faster'), rounds: 12, attempts: 2 } as BisectResult['steps'][number]],
    skipped: [{ release: '25.0.0', reason: `crashed: ${LONG}` }],
    outcome: { kind: 'changes', ends: c(0.7, 'faster'), unresolved: [], culprits: [{ older: '25.0.0', newer: '25.1.0', skippedBetween: [], direction: 'faster', found: c(0.71, 'faster'), confirmation: c(0.7, 'faster'), confirmed: false }] },
  };
  const engine = (v: string, e: string) => ({ version: v, engine: 'v8', engineVersion: e });
  return { kind: 'bisect', runtime: 'node', suite: 'json-reviver', caseId: LONG, measure: 'lockstep', threshold: 0.05, confidence: 0.99, sameConfidence: 0.9, folder: '/tmp/b', engines: { 'node@25.0.0': engine('25.0.0', '14.1.146.11'), 'node@25.1.0': engine('25.1.0', '14.1.146.12') }, result, engineNames: { v8: 'V8' }, unit: 'ns' };
}

function releasesView(): ReleaseMatrixView {
  const outcome = (word: ClaimOutcome['word'], ratio: number): ClaimOutcome => ({ says: `${LONG} is at least 3× slower than the plain parse`, suite: 'json-reviver', subject: { caseId: LONG, variantId: 'node@x' }, other: { caseId: 'parse / plain', variantId: 'node@x' }, expect: { kind: 'slower', factor: 3 }, measure: 'time', word, ratio, interval: [ratio * 0.9, ratio * 1.1], units: 6 });
  const releases = ['25.9.0', '26.0.0', '26.1.0'];
  const columns = ['25.9.0', '26.0.0'].map((label, k) => ({ label, versionText: `V8 ${k}`, outcomes: [outcome(k ? 'broken' : 'held', k ? 2 : 3.5)] }));
  const track: TrackAnalysis = {
    track: { key: 'node × json-reviver', runtime: 'node', extra: [], suite: 'json-reviver', range: 'node@25.9.0..node@26.1.0', listed: releases, releases },
    engines: {},
    cases: [],
    setsMeasured: 6,
    setsWanted: 12,
    claims: claimsMatrix(columns, (from, to) => [`rtbench bisect node@${from.label}..node@${to.label} json-reviver --filter '/^${LONG}$/' --threshold 2%`], () => ({ subject: { caseId: 'arrow', variantId: 'node' }, other: { caseId: 'plain', variantId: 'node' } })),
  };
  const comparison = { ratio: 0.66, ci: [0.62, 0.7] as [number, number], confidence: 0.99, units: 6, inference: { estimate: Math.log(0.66), se: 0.02, df: 5, units: 6 }, pValue: 0.001, verdict: 'faster' as const, threshold: 0.01, n: 6, method: 'm', qValue: 0.0004 };
  const changePoint = { track: track.track.key, caseId: LONG, older: '25.9.0', newer: '26.0.0', direction: 'faster' as const, comparison, engines: { older: { engine: 'V8 13.6.233.17' }, newer: { engine: 'V8 14.1.146.11' } }, skipped: [], compareCommand: `rtbench bench json-reviver --compare node@25.9.0 node@26.0.0 --filter '/^${LONG}$/'` };
  return { kind: 'releases', threshold: 0.01, tracks: [track], changePoints: [changePoint as unknown as ReleaseMatrixView['changePoints'][number]], comparisons: 6, confidence: 0.95, folder: '/tmp/m' };
}

function claimsOfSavedRuns(): View {
  const folder = join(RESULTS, 'claims-20261124-035723Z');
  return claimsView(readdirSync(folder).map((f) => ({ run: saved(join('claims-20261124-035723Z', f)), file: join(folder, f) })));
}

/** A compare's memory (arms of 20 characters) with a leak marked on one row: the widest cell beside the widest arm. */
function leakingMemory(): RunRecord {
  const run = saved('20261126-222223Z-ssr-compare.json');
  const first = run.results.find((r) => r.memory)!;
  first.memory = { ...first.memory!, leak: true, growthPerCallBytes: 999 * 1024, heldPerCallBytes: 999 * 1024 };
  return run;
}

/** The default table cut to its first round, its samples spanned (a share of half its cost): four runtimes, one process pair a cell. */
function oneSpannedRound(): RunRecord {
  const run = saved('20261124-080039Z-json-reviver.json');
  for (const result of run.results) {
    result.rounds = result.rounds.slice(0, 1);
    for (const round of result.rounds) round.span = { quietCallNs: Math.min(...round.samples) / 2, grownBy: 4 };
  }
  return run;
}

/**
 * A saved run whose every case name runs past a line: a user's own names can (a brought file's groups and
 * parameters). A request case's id is its name and its `[cpu=…]` row; the name grows, the row stays.
 */
function longNames(name: string): RunRecord {
  const raw = JSON.parse(readFileSync(join(RESULTS, name), 'utf8')) as { cases: { id: string; name?: string }[] };
  const ids = new Map(raw.cases.map((c) => [c.id, c.id.replace(/^(.*?)( \[cpu=[^\]]*\])?$/, (_all, head: string, row = '') => `${head} / ${LONG}${row}`)]));
  for (const c of raw.cases) if (c.name !== undefined) c.name = `${c.name} / ${LONG}`;
  const rename = (v: unknown): unknown =>
    typeof v === 'string' ? (ids.get(v) ?? v) : Array.isArray(v) ? v.map(rename) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, rename(x)])) : v;
  return parseRun(rename(raw), name);
}

function requestRun(): RunRecord {
  return syntheticRequestRun({ arms: [{ id: 'node@26', factor: 1 }, { id: 'node@24 --max-semi-space-size=64', factor: 1.2, tailFactor: 1.5 }], rounds: 6 });
}

/** A table kind's view, made once for both renderings (most of the file's time is making views of saved runs). */
const once = <T>(make: () => T): (() => T) => {
  let made: T | undefined;
  return () => (made ??= make());
};
const table = (view: () => View) => {
  const v = once(view);
  return (color: boolean) => render(v(), color);
};
const metrics = (view: () => View, kind: 'memory' | 'gc') => {
  const v = once(view);
  return (color: boolean) => terminalMetrics(metricsSection(v(), kind)!, { color, columns: COLUMNS });
};
const oneRound = once(() => viewOfRun(oneSpannedRound()));
const relayRequest = once(() => viewOfRun(saved('20261126-111226Z-relay-request.json'), { cpuLimitMs: 10 }));

/** Each table kind: its name and how it renders with colour on or off. */
const TABLES: [string, (color: boolean) => string][] = [
  ['bench table', table(() => viewOfRun(saved('20261124-080039Z-json-reviver.json')))],
  ['one round on four runtimes, its samples spanned', (color) => render(oneRound(), color)],
  ['compare', table(() => viewOfRun(saved('20261121-130300Z-gc-pressure-compare.json')))],
  // The limit is a view option: the 10 ms the saved run was made with, 5 ms for the synthetic one.
  ['CPU per request (bench)', table(relayRequest)],
  ['CPU per request (compare, a limit)', table(() => viewOfRun(requestRun(), { cpuLimitMs: 5 }))],
  ['memory', metrics(() => viewOfRun(saved('20261126-213742Z-json-reviver-precise.json')), 'memory')],
  ['memory of a compare', metrics(() => viewOfRun(saved('20261126-222223Z-ssr-compare.json')), 'memory')],
  ['memory with a leak marked', metrics(() => viewOfRun(leakingMemory()), 'memory')],
  ['gc', metrics(() => viewOfRun(saved('20261126-111226Z-relay-request.json')), 'gc')],
  ['claims', table(claimsOfSavedRuns)],
  ['history', table(() => historyView(historyRuns([{ factor: 1 }, { factor: 1.1 }, { factor: 1.1 }], { cases: [{ id: LONG, ns: 1_000 }], rounds: 6, seed: 3 }).map((run, i) => ({ run, file: `/results/run-${i}.json` }))))],
  ['history of two suites with request cases', table(() => historyView(['20261126-111226Z-relay-request.json', '20261127-010336Z-next-page.json'].map((f) => ({ run: saved(f), file: `/results/${f}` }))))],
  ['bench table, case names past a line', table(() => viewOfRun(longNames('20261128-174814Z-json-reviver.json')))],
  ['compare, case names past a line', table(() => viewOfRun(longNames('20261121-130300Z-gc-pressure-compare.json')))],
  ["a Worker's CPU per request, request names past a line", table(() => viewOfRun(longNames('20261126-111226Z-relay-request.json'), { cpuLimitMs: 10 }))],
  ['releases', table(releasesView)],
  ['bisect', table(bisectView)],
];

describe.each(TABLES)('the %s at 100 columns', (_name, draw) => {
  const coloured = draw(true);
  const plain = draw(false);

  it('has colour when asked and none when not', () => {
    expect(coloured).toMatch(SGR);
    expect(plain).not.toMatch(SGR);
  });

  it('keeps every line within 100 columns on screen, with colour and without', () => {
    for (const text of [coloured, plain]) expect(text.split('\n').filter((l) => width(l) > COLUMNS)).toEqual([]);
  });

  it('lays out the same with colour as without: the colour codes take no column', () => {
    expect(visible(coloured)).toBe(plain);
  });
});

describe('case names past a line', () => {
  it('head their rows on one line each, cut to fit rather than wrapped', () => {
    for (const [name, draw] of TABLES.filter(([n]) => n.endsWith('names past a line'))) {
      const headings = draw(false).split('\n').filter((l) => l.includes('a case whose name'));
      expect(headings.length, name).toBeGreaterThan(1);
      // The line after a heading is a row of figures, not the rest of the name.
      const lines = draw(false).split('\n');
      for (const h of headings) expect(lines[lines.indexOf(h) + 1], name).not.toMatch(/^\S/);
    }
  });
});

describe('the CPU-per-request table', () => {
  it('puts each interval under its figure, and says which columns a narrow terminal left out (--explain: the brief lines lead)', () => {
    for (const color of [true, false]) {
      const lines = visible(terminal.render(relayRequest(), { color, columns: COLUMNS, explain: true })).split('\n');
      const intervals = lines.flatMap((l, i) => (/^\s+[\d.]+–[\d.]+/.test(l) ? [i] : []));
      expect(intervals.length).toBeGreaterThan(10);
      for (const i of intervals) {
        // Every interval ends in the column where a figure of the row above ends.
        const ends = (l: string): number[] => [...l.matchAll(/\S+/g)].map((m) => m.index! + m[0].length);
        const above = new Set(ends(lines[i - 1]!));
        for (const end of ends(lines[i]!)) expect(above.has(end)).toBe(true);
      }
      expect(lines.join('\n')).toMatch(/p99\.9(, [\w.]+)*: left out to fit 100 columns \(≥ \d+ shows them/);
    }
  });
});

describe('a bench table too wide for the terminal', () => {
  it('leaves out ops/s, then the collector’s share, and says so; a wider terminal shows them', () => {
    const narrow = render(oneRound(), false);
    // The first line says the rounds the rows got; the column heads follow it.
    expect(narrow.split('\n')[0]).toMatch(/^rounds: \d+ a row/);
    const head = narrow.split('\n')[1]!;
    expect(head).toMatch(/median\/op +p25–p75 +CI +gc +vs A \(paired\)/);
    expect(narrow).toMatch(/^ops\/s: left out to fit 100 columns \(≥ (\d+) shows them; --format markdown has every column\)$/m);
    // Narrower still: the collector's share goes next.
    const narrower = terminal.render(oneRound(), { color: false, columns: 92 });
    expect(narrower).toMatch(/^ +runtime +median\/op +p25–p75 +CI +vs A \(paired\)/m);
    expect(narrower).toMatch(/^ops\/s, gc: left out to fit 92 columns/m);
    const needed = Number(/≥ (\d+) shows them/.exec(narrow)![1]);
    expect(needed).toBeGreaterThan(COLUMNS);
    const wide = terminal.render(oneRound(), { color: false, columns: needed });
    expect(wide.split('\n')[1]).toMatch(/CI +ops\/s +gc +vs \w+ \(paired\)/);
    expect(wide).not.toMatch(/left out to fit/);
    // One column short of that: only ops/s goes.
    expect(terminal.render(oneRound(), { color: false, columns: needed - 1 })).toMatch(/^ops\/s: left out to fit/m);
  });
});

describe('the CPU limit in the request table', () => {
  it('is written as a duration in its own unit, never as an exponent', () => {
    for (const [limitMs, text] of [
      [5, '> 5 ms'],
      [0.5, '> 500 µs'],
      [1500, '> 1.50 s'],
    ] as const) {
      const out = render(viewOfRun(requestRun(), { cpuLimitMs: limitMs }), false);
      expect(out).toContain(text);
      expect(out).not.toMatch(/\de[+-]\d/);
    }
  });
});
