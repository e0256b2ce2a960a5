/**
 * The bisect's parts that start no process: the range syntax, the
 * folder that makes a bisect resumable, the log ratios read from a step's
 * run, and the answer's view through the reporter map, every interval on its screen at
 * one level, said once. The search itself is tested in
 * search.test.ts; the threshold the command picks in
 * packages/cli/test/bisect-threshold.test.ts; a real bisect's figures are in docs/bisect.md.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BisectResult } from '../src/index.ts';
import { parseRange, releaseVariant } from '@rtbench/arms';
import { releaseSeriesInputs, releaseSeriesView } from '../src/series.ts';
import { reporterFor, type BisectView } from '../../report/src/index.ts';
import { processMedianInterval } from '@rtbench/stats';
import { BisectFolder, LOCK_FILE, STATE_FILE, type BisectIdentity } from '../src/state.ts';
import { installsOf, logRatiosOf } from '../src/step.ts';
import { UsageError } from '@rtbench/core/usage-error';
import { syntheticRun, writeRun } from '../../../test/compare-synthetic.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rtbench-bisect-parts-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the range', () => {
  it('reads both ends of one runtime, and flags and environment for every release', () => {
    const r = parseRange('node@24.0.0..node@26.10.0 --max-semi-space-size=64 NODE_ENV=production');
    expect(r).toMatchObject({ runtime: 'node', fromTag: '24.0.0', toTag: '26.10.0', extra: ['--max-semi-space-size=64', 'NODE_ENV=production'] });
    expect(releaseVariant(r, '25.1.0').id).toBe('node@25.1.0 --max-semi-space-size=64 NODE_ENV=production');
    expect(parseRange('workerd@2025-01-01..workerd@2025-03-01')).toMatchObject({ runtime: 'workerd', fromTag: '2025-01-01', toTag: '2025-03-01' });
    expect(parseRange('deno@2.1.0..2.2.0')).toMatchObject({ fromTag: '2.1.0', toTag: '2.2.0' });
  });

  it("reads a package's versions as a range, its arms pinning each on the runtime after it", () => {
    const r = parseRange('react@18.3.1..react@19.2.0 workerd');
    expect(r).toMatchObject({ runtime: 'react', fromTag: '18.3.1', toTag: '19.2.0', extra: ['workerd'] });
    expect(r.plugin).toBeUndefined();
    expect(releaseVariant(r, '19.0.0')).toMatchObject({ id: 'react@19.0.0 workerd', runtimeSpec: 'workerd', packages: [{ name: 'react', version: '19.0.0' }] });
    expect(releaseVariant(parseRange('react@18.3.1..19.2.0'), '19.0.0')).toMatchObject({ runtimeSpec: 'node' });
  });

  it('refuses in one line what is not a range of releases', () => {
    expect(() => parseRange('node@24.0.0..deno@2.1.0')).toThrow(/both ends must be releases of one runtime/);
    expect(() => parseRange('node@24..node@26')).toThrow(/not a release written in full \(e\.g\. node@26\.10\.0\)/);
    expect(() => parseRange('node@24.0.0')).toThrow(UsageError);
    expect(() => parseRange('node@24.0.0..node@24.1.0,node@25.0.0')).toThrow(/one range, no commas/);
  });
});

describe('the folder', () => {
  const identity: BisectIdentity = { range: 'node@24.0.0..node@24.2.0', suite: 's', caseId: 'c', measure: 'time', threshold: 0.01, timePerRoundMs: 100, warmupMs: 0, minRounds: 10, maxRounds: 160 };
  const request = { older: 0, newer: 2, rounds: 10, purpose: 'ends' as const, attempt: 0 };

  it('gives back a saved measurement to the same command, and nothing to another question', () => {
    const folder = BisectFolder.open(dir, identity);
    expect(folder.saved(request, '24.0.0', '24.2.0')).toBeUndefined();
    folder.add({ older: '24.0.0', newer: '24.2.0', purpose: 'ends', attempt: 0, rounds: 10, outcome: { kind: 'measured', logRatios: [0.1, 0.2] }, run: '01-x.json', durationMs: 5 });
    folder.close();
    const again = BisectFolder.open(dir, identity);
    again.close();
    expect(again.saved(request, '24.0.0', '24.2.0')?.outcome).toEqual({ kind: 'measured', logRatios: [0.1, 0.2] });
    expect(again.saved({ ...request, attempt: 1 }, '24.0.0', '24.2.0')).toBeUndefined();
    expect(() => BisectFolder.open(dir, { ...identity, threshold: 0.05 })).toThrow(/holds a bisect asked differently \(threshold: 0\.01 there, 0\.05 now\)/);
  });

  it('is held by one bisect at a time: a second is refused naming the first; a lock whose process ended is taken over', () => {
    const first = BisectFolder.open(dir, identity);
    expect(() => BisectFolder.open(dir, identity)).toThrow(`another bisect (pid ${process.pid}) is working in ${dir}; two at once would overwrite each other's runs: wait for it, or name another --dir`);
    first.close();
    // A pid no process has: the bisect that held the lock died without releasing it.
    writeFileSync(join(dir, LOCK_FILE), '999999999\n');
    const next = BisectFolder.open(dir, identity);
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8').split('\n')[0]).toBe(String(process.pid));
    next.close();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it('refuses, in one line, a folder that cannot be made: a file in the way, /proc', () => {
    writeFileSync(join(dir, 'a-file'), 'x');
    expect(() => BisectFolder.open(join(dir, 'a-file'), identity)).toThrow(`the bisect folder ${join(dir, 'a-file')} is a file, not a folder`);
    expect(() => BisectFolder.open('/proc/rtbench-bisect', identity)).toThrow(/^the bisect folder \/proc\/rtbench-bisect: no file can be created in \/proc/);
  });

  it('does not resume steps another machine measured (a folder copied, or kept in a repository)', () => {
    const measured = BisectFolder.open(dir, identity, 'builder, Some CPU');
    measured.save();
    measured.close();
    expect(() => BisectFolder.open(dir, identity, 'laptop, Other CPU')).toThrow(
      `${dir} holds a bisect measured on another machine (builder, Some CPU; this is laptop, Other CPU): its steps and this machine's would not make one comparison; name another --dir or remove that one`,
    );
    BisectFolder.open(dir, identity, 'builder, Some CPU').close();
  });

  it('refuses a state file it cannot read, saying how to start again, and leaves the folder unlocked', () => {
    writeFileSync(join(dir, STATE_FILE), '{not json');
    expect(() => BisectFolder.open(dir, identity)).toThrow(/not readable .*remove it to start the bisect again/);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    const damaged = (state: object): string => {
      writeFileSync(join(dir, STATE_FILE), JSON.stringify(state));
      try {
        BisectFolder.open(dir, identity).close();
      } catch (error) {
        return (error as Error).message;
      }
      return 'opened';
    };
    const saved = { schema: 'rtbench.bisect', version: 1, identity, installed: [], steps: [] };
    expect(damaged({ ...saved, steps: 'many' })).toBe(`${join(dir, STATE_FILE)} is damaged at steps (expected a list); remove it to start the bisect again`);
    expect(damaged({ ...saved, version: 2 })).toBe(`${join(dir, STATE_FILE)} has state version 2, from a newer rtbench; this one reads version 1`);
    expect(damaged({ ...saved, schema: 'rtbench.releases' })).toMatch(/is not an rtbench bisect's state \(its "schema" is "rtbench\.releases"\)$/);
    expect(damaged(saved)).toBe('opened');
  });

  it('resumes a state as an earlier rtbench saved it (no machine named): its steps are given back', () => {
    // The file as written before states named their machine; one step, one install.
    const text = `{
 "schema": "rtbench.bisect",
 "version": 1,
 "identity": {"range": "node@24.0.0..node@24.2.0", "suite": "s", "caseId": "c", "measure": "time", "threshold": 0.01, "timePerRoundMs": 100, "warmupMs": 0, "minRounds": 10, "maxRounds": 160},
 "installed": ["/cache/node@24.1.0"],
 "steps": [{"older": "24.0.0", "newer": "24.2.0", "purpose": "ends", "attempt": 0, "rounds": 10, "outcome": {"kind": "measured", "logRatios": [0.1, 0.2]}, "run": "01-24.0.0-vs-24.2.0.json", "durationMs": 5}]
}
`;
    writeFileSync(join(dir, STATE_FILE), text);
    const folder = BisectFolder.open(dir, identity, 'any machine');
    folder.close();
    expect(folder.saved(request, '24.0.0', '24.2.0')?.outcome).toEqual({ kind: 'measured', logRatios: [0.1, 0.2] });
    expect(folder.state.installed).toEqual(['/cache/node@24.1.0']);
    expect(folder.runPath('24.0.0', '24.1.0')).toBe(join(dir, '02-24.0.0-vs-24.1.0.json'));
  });
});

describe('a step run', () => {
  const cases = [{ id: 'c', ns: 1000 }];
  it('reads per-round log ratios newer/older', () => {
    const run = syntheticRun({ cases, arms: [{ id: 'node@24.0.0', factor: 1 }, { id: 'node@26.10.0', factor: 0.7 }], rounds: 12, seed: 3 });
    const got = logRatiosOf(run, 'c', 'node@24.0.0', 'node@26.10.0');
    if (!('logRatios' in got)) throw new Error('expected ratios');
    expect(got.logRatios).toHaveLength(12);
    const mean = got.logRatios.reduce((a, b) => a + b, 0) / 12;
    expect(Math.exp(mean)).toBeGreaterThan(0.6);
    expect(Math.exp(mean)).toBeLessThan(0.8);
  });

  it('names the release that has no sample, with its failure', () => {
    const run = syntheticRun({ cases, arms: [{ id: 'node@24.0.0', factor: 1 }, { id: 'node@26.10.0', factor: 1, overrides: { c: { unsupported: 'no reviver context' } } }], rounds: 6 });
    expect(logRatiosOf(run, 'c', 'node@24.0.0', 'node@26.10.0')).toEqual({ failed: 'newer', reason: 'unsupported: no reviver context' });
  });
});

describe('the answer', () => {
  const c = (ratio: number, verdict: 'faster' | 'slower' | 'equivalent') => ({ ratio, ci: [ratio * 0.98, ratio * 1.02] as [number, number], confidence: 0.99, units: 10, inference: { estimate: Math.log(ratio), se: 0.005, df: 9, units: 10 }, pValue: 0.001, verdict, threshold: 0.05, n: 10, method: 'm' });
  it('names the release, the size with its interval and the engine on each side', () => {
    const result: BisectResult = {
      releases: ['24.0.0', '25.0.0', '25.1.0', '26.0.0'],
      first: '24.0.0',
      last: '26.0.0',
      steps: [],
      skipped: [{ release: '25.0.0', reason: 'crash' }],
      outcome: { kind: 'changes', ends: c(0.7, 'faster'), unresolved: [], culprits: [{ older: '25.0.0', newer: '25.1.0', skippedBetween: [], direction: 'faster', found: c(0.71, 'faster'), confirmation: c(0.7, 'faster'), confirmed: true }] },
    };
    const engine = (v: string, e: string) => ({ version: v, engine: 'v8', engineVersion: e });
    const view = (unit: BisectView['unit']): BisectView => ({
      kind: 'bisect',
      runtime: 'node',
      suite: 's',
      caseId: 'c',
      measure: 'lockstep',
      threshold: 0.05,
      confidence: 0.99,
      sameConfidence: 0.9,
      folder: dir,
      engines: { 'node@24.0.0': null, 'node@25.0.0': engine('25.0.0', '14.1.146.11'), 'node@25.1.0': engine('25.1.0', '14.1.146.12') },
      result,
      engineNames: { v8: 'V8' },
      unit,
    });
    // Through the reporter map, as the command prints it: the answer under its heading, then the steps.
    const answer = (unit: BisectView['unit']): string[] => reporterFor('terminal')!.render(view(unit), { color: false, columns: 100 }).split('\n').slice(1);
    const lines = answer('ns');
    expect(lines[0]).toBe('node@24.0.0..node@26.0.0: −30%, ratio 0.700 [0.686–0.714] over the range');
    expect(lines[1]).toBe('faster in node@25.1.0 (after node@25.0.0): −30%, ratio 0.700 [0.686–0.714]');
    expect(lines[3]).toContain('V8 14.1.146.12  (engine 14.1.146.11 → 14.1.146.12)');
    expect(lines[lines.indexOf('steps') - 2]).toBe('skipped node@25.0.0: crash');
    // A count is not a time: the same answer over instruction counts says "fewer".
    expect(answer('instructions')[1]).toBe('fewer instructions in node@25.1.0 (after node@25.0.0): −30%, ratio 0.700 [0.686–0.714]');
    // The JSON keeps its schema's fields, in their order, and leaves out what only the words need.
    expect(Object.keys(JSON.parse(reporterFor('json')!.render(view('ns'), {})))).toEqual(['schema', 'runtime', 'suite', 'caseId', 'measure', 'threshold', 'confidence', 'sameConfidence', 'folder', 'engines', 'result']);
    // Markdown, for an issue: the answer as a list, the engines' lines under their change.
    const markdown = reporterFor('markdown')!.render(view('ns'), {}).split('\n');
    expect(markdown).toContain('- faster in node@25.1.0 (after node@25.0.0): −30%, ratio 0.700 [0.686–0.714]');
    expect(markdown).toContain('  - node@25.1.0: node 25.1.0, V8 14.1.146.12  (engine 14.1.146.11 → 14.1.146.12)');
  });
});

describe('the releases as a series', () => {
  it('draws one point per release measured, in release order, named by the release', () => {
    const range = { ...parseRange('node@24.0.0..node@26.0.0'), tags: ['24.0.0', '25.0.0', '26.0.0'] };
    const cases = [{ id: 'c', ns: 1000 }];
    // Two step runs, the newer measured first: the series still reads oldest first.
    writeRun(join(dir, '01.json'), syntheticRun({ mode: 'compare', cases, arms: [{ id: 'node@25.0.0', factor: 1 }, { id: 'node@26.0.0', factor: 0.6 }], rounds: 8, seed: 1 }));
    writeRun(join(dir, '02.json'), syntheticRun({ mode: 'compare', cases, arms: [{ id: 'node@24.0.0', factor: 1 }, { id: 'node@25.0.0', factor: 1 }], rounds: 8, seed: 2 }));
    const measured = { kind: 'measured' as const, logRatios: [] };
    const steps = [
      { older: '25.0.0', newer: '26.0.0', purpose: 'split' as const, attempt: 0, rounds: 8, outcome: measured, run: '01.json', durationMs: 1 },
      { older: '24.0.0', newer: '25.0.0', purpose: 'split' as const, attempt: 0, rounds: 8, outcome: measured, run: '02.json', durationMs: 1 },
    ];
    const view = releaseSeriesView(releaseSeriesInputs(range, dir, steps, 'c'), 0.01);
    expect(view.runs.map((r) => r.label)).toEqual(['node@24.0.0', 'node@25.0.0', 'node@26.0.0']);
    expect(view.cases).toHaveLength(1);
    expect(view.cases[0]!.series.map((s) => s.variantId)).toEqual(['node']);
    const medians = view.cases[0]!.series[0]!.points.map((p) => p.median!);
    expect(medians[2]! / medians[1]!).toBeLessThan(0.7);
    expect(reporterFor('terminal')!.render(view, { color: false, columns: 100 })).toContain('node@26.0.0');
    // Its figures alone, at the bisect's level: neighbours from different runs are not judged beside the paired steps.
    expect(view.confidence).toBe(0.99);
    expect(view.cases[0]!.series[0]!.points.some((p) => p.change || p.changePoint)).toBe(false);
  });

  it("is one screen with one level of interval: the steps', the answer's and the releases', said once in its key", () => {
    const range = { ...parseRange('node@24.0.0..node@25.0.0'), tags: ['24.0.0', '25.0.0'] };
    writeRun(join(dir, '01.json'), syntheticRun({ mode: 'compare', cases: [{ id: 'c', ns: 1000 }], arms: [{ id: 'node@24.0.0', factor: 1 }, { id: 'node@25.0.0', factor: 0.6 }], rounds: 8, seed: 1 }));
    const steps = [{ older: '24.0.0', newer: '25.0.0', purpose: 'ends' as const, attempt: 0, rounds: 8, outcome: { kind: 'measured' as const, logRatios: [] }, run: '01.json', durationMs: 1 }];
    const series = releaseSeriesView(releaseSeriesInputs(range, dir, steps, 'c'), 0.01);
    const c = (ratio: number, verdict: 'faster' | 'equivalent', confidence: number) => ({ ratio, ci: [ratio * 0.98, ratio * 1.02] as [number, number], confidence, units: 8, inference: { estimate: Math.log(ratio), se: 0.005, df: 7, units: 8 }, pValue: 0.001, verdict, threshold: 0.01, n: 8, method: 'm' });
    const result: BisectResult = {
      releases: ['24.0.0', '25.0.0'],
      first: '24.0.0',
      last: '25.0.0',
      // A "same" step is decided at another level (a two one-sided test's 90% interval): it says its band, not that interval.
      steps: [
        { purpose: 'ends', older: '24.0.0', newer: '25.0.0', comparison: c(0.6, 'faster', 0.99), rounds: 8, attempts: 1 },
        { purpose: 'split', older: '24.0.0', newer: '25.0.0', comparison: c(1.002, 'equivalent', 0.9), rounds: 8, attempts: 1 },
      ],
      skipped: [],
      outcome: { kind: 'changes', ends: c(0.6, 'faster', 0.99), unresolved: [], culprits: [{ older: '24.0.0', newer: '25.0.0', skippedBetween: [], direction: 'faster', found: c(0.6, 'faster', 0.99), confirmation: c(0.6, 'faster', 0.99), confirmed: true }] },
    };
    const view: BisectView = { kind: 'bisect', runtime: 'node', suite: 's', caseId: 'c', measure: 'lockstep', threshold: 0.01, confidence: 0.99, sameConfidence: 0.9, folder: dir, engines: {}, result, engineNames: {}, unit: 'ns', series };
    const terminal = reporterFor('terminal')!.render(view, { color: false, columns: 100 });
    const markdown = reporterFor('markdown')!.render(view, {});
    for (const screen of [terminal, markdown]) {
      expect(screen).not.toMatch(/\] at \d|at 90%/);
      expect(screen.match(/\d+(\.\d+)?% intervals/g)).toEqual(['99% intervals']);
      expect(screen).toContain('equivalent +0.2%, within ±1% (8 rounds)');
      expect(screen.replace(/\s+/g, ' ')).toContain('equivalent: a two one-sided test at 5% puts the change within the band shown (its interval is not shown)');
    }
    // Each release's figure with its interval at that level, from its process medians.
    const newer = series.cases[0]!.series[0]!.points[1]!;
    const [lo, hi] = processMedianInterval(newer.processMedians, 0.99)!;
    expect(terminal).toMatch(new RegExp(`node@25\\.0\\.0 +\\d+ ns +\\[${Math.round(lo)}–${Math.round(hi)} ns\\] +01\\.json`));
    expect(markdown).toContain(`| node@25.0.0 | ${Math.round(newer.median!)} ns | [${Math.round(lo)}–${Math.round(hi)} ns] | 01.json |`);
    // The page: the history's chart under the bisect's key, not the history's legend.
    const page = reporterFor('html')!.render(view, {});
    expect(page).toContain('99% intervals: every interval here.');
    expect(page).not.toContain('change points in');
  });
});

describe('what a bisect installed', () => {
  // The ends are probed before the folder opens; --clean removes what this bisect installed, the older end as the newer.
  const range = { ...parseRange('node@24.0.0..node@24.2.0'), tags: ['24.0.0', '24.1.0', '24.2.0'] };
  const entryOf = async (_: unknown, tag: string) => (tag === 'unlisted' ? undefined : join(dir, `node@${tag}`));

  it('notes each end the cache lacked before and holds after, the older end included, and nothing that was there or never came', async () => {
    mkdirSync(join(dir, 'node@24.1.0'));
    const noteEnds = await installsOf(range, ['24.0.0', '24.1.0', '24.2.0', '24.3.0', 'unlisted'], entryOf);
    mkdirSync(join(dir, 'node@24.0.0'));
    mkdirSync(join(dir, 'node@24.2.0'));
    const noted: string[] = [];
    noteEnds({ noteInstalled: (entry) => noted.push(entry) });
    expect(noted).toEqual([join(dir, 'node@24.0.0'), join(dir, 'node@24.2.0')]);
  });
});
