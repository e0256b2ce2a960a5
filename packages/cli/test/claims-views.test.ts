/** Claims without processes: the API, the word from an interval, checks on synthetic runs, the planner, the reporters, the matrix and its bisect command. */
import { describe, expect, it } from 'vitest';
import { atMost, below, claim, faster, same, slower, within } from '@rtbench/core';
import { claimOutcomeSchema } from '@rtbench/core/claims-schema';
import { parseRun } from '@rtbench/core/schema';
import { claimedText, claimFigure, claimFlipNotes, claimsView, reporterFor } from '@rtbench/report';
import { bisectCommandFor, claimRuns, claimsColumns, columnChecks, expandClaims, replaceVariants, suiteClaims, variantArgument } from '@rtbench/claims';
import { parseRange } from '@rtbench/arms';
import { parseCommandArgs } from '../src/args/args.ts';
import { COMMANDS } from '../src/command-list.ts';
import { caseFilter, locateSuite } from '@rtbench/suite-loader';
import { parseRuntimeList } from '@rtbench/arms';
import { syntheticRun } from '../../../test/compare-synthetic.ts';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { listSuites, loadSuite } from '@rtbench/suite-loader';
import { checkClaims, type ClaimCheck, type ClaimFamily, claimsBlock, claimsMatrix, wordOf } from '@rtbench/verdicts';

const family: ClaimFamily = { confidence: 0.95, size: 4, threshold: 0.01 };
const ln = Math.log;

describe('claim()', () => {
  it('normalises a claim and refuses one that names no case, no other side or no size', () => {
    const c = claim('b is twice a', { case: 'b', than: 'a', is: slower(2) });
    expect(c).toEqual({ says: 'b is twice a', case: 'b', than: { case: 'a' }, is: { kind: 'slower', factor: 2 }, measure: 'time' });
    expect(faster('10%')).toEqual({ kind: 'faster', factor: 1.1 });
    expect(() => claim(' ', { case: 'b', than: 'a', is: same() })).toThrow(/sentence/);
    expect(() => claim('x', { case: '', than: 'a', is: same() })).toThrow(/name the case/);
    expect(() => claim('x', { case: 'b', than: {} as never, is: same() })).toThrow(/compares with/);
    expect(() => slower(1)).toThrow(/more than 1/);
    expect(() => within('0%')).toThrow(/between 0% and 100%/);
  });
});

describe('the word from an interval', () => {
  it('holds only when the whole interval is on the claimed side, breaks only when it is wholly on the other', () => {
    const f = faster(1.5); // bound at ln(1/1.5) on the log cost ratio
    expect(wordOf(f, [ln(0.5), ln(0.6)], 0.01)).toBe('held');
    expect(wordOf(f, [ln(0.7), ln(0.9)], 0.01)).toBe('broken');
    expect(wordOf(f, [ln(0.6), ln(0.7)], 0.01)).toBe('undecided');
    expect(wordOf(f, undefined, 0.01)).toBe('undecided');
    const s = slower(2);
    expect(wordOf(s, [ln(2.1), ln(2.5)], 0.01)).toBe('held');
    expect(wordOf(s, [ln(1.2), ln(1.9)], 0.01)).toBe('broken');
    const w = within('3%');
    expect(wordOf(w, [ln(0.99), ln(1.02)], 0.01)).toBe('held');
    expect(wordOf(w, [ln(1.04), ln(1.1)], 0.01)).toBe('broken');
    expect(wordOf(w, [ln(1.0), ln(1.05)], 0.01)).toBe('undecided');
    // The band is −10% to +10% as written, not ±ln(1.1) in logs.
    expect(wordOf(within('10%'), [ln(0.905), ln(1.0)], 0.01)).toBe('held');
    expect(wordOf(same(), [ln(0.995), ln(1.005)], 0.01)).toBe('held');
    expect(wordOf(same(), [ln(1.9), ln(2.1)], 0.01)).toBe('broken');
  });
});

/** A run of two cases (b does twice a's work) on node@26 and node@24 (1.6× slower on every case). */
function twoCaseRun() {
  return syntheticRun({
    cases: [
      { id: 'a', ns: 1000 },
      { id: 'b', ns: 2000 },
    ],
    arms: [
      { id: 'node@26', factor: 1 },
      { id: 'node@24', factor: 1.6 },
    ],
    rounds: 10,
    sigma: 0.02,
    seed: 7,
  });
}

const check = (over: Partial<ClaimCheck> & Pick<ClaimCheck, 'expect'>): ClaimCheck => ({
  says: 'a claim',
  suite: 'synthetic',
  subject: { caseId: 'b', variantId: 'node@26' },
  other: { caseId: 'a', variantId: 'node@26' },
  measure: 'time',
  ...over,
});

describe('claims about peak memory', () => {
  // node@24's processes peak at 1.3× node@26's on case a (±2% per process); case b has no readings.
  const MB = 1e6;
  const run = twoCaseRun();
  for (const r of run.results) {
    if (r.caseId !== 'a') continue;
    for (const round of r.rounds) {
      const peakBytes = (r.variantId === 'node@24' ? 130 : 100) * MB * (1 + 0.02 * Math.sin(round.round * 7 + r.variantId.length));
      round.memory = { source: 'synthetic', openBytes: 50 * MB, sampleBytes: [], callsPerSample: 100, peakBytes, processes: 1 };
    }
  }
  const memory = (expect: ClaimCheck['expect'], caseId = 'a'): ClaimCheck => check({ subject: { caseId, variantId: 'node@24' }, other: { caseId, variantId: 'node@26' }, expect, measure: 'peakRss' });
  const outcomes = checkClaims(run, [memory(atMost(1.5)), memory(atMost(1.2)), memory(slower(1.2)), memory(atMost(1.5), 'b')], family);

  it('decides a ceiling and a size on the peaks, one unit per process pair', () => {
    expect(outcomes.map((o) => o.word)).toEqual(['held', 'broken', 'held', 'undecided']);
    expect(outcomes[0]!.ratio).toBeCloseTo(1.3, 1);
    expect(outcomes[0]!.units).toBe(10);
    // The reason is the run's own, as the memory view gives it: its host (os.type()), else its age.
    expect(outcomes[3]!.note).toMatch(/^b on node@24 has no resident-memory readings: it was measured on linux, and rtbench reads resident memory from \/proc, on Linux only$/);
    const [old] = checkClaims({ ...run, host: { ...run.host, os: 'Linux' } }, [memory(atMost(1.5), 'b')], family);
    expect(old!.note).toMatch(/no resident-memory readings: it was saved before rtbench read resident memory.*, or \/proc could not be read$/);
  });

  it('reads as memory, not speed', () => {
    expect(claimedText(outcomes[2]!)).toBe('at least 1.2× more memory');
    expect(claimedText(outcomes[0]!)).toBe('at most 1.5× the memory');
    expect(claimFigure(outcomes[2]!)).toMatch(/^1\.3\d× more memory \[/);
    expect(() => atMost(0)).toThrow(/above 0/);
  });

  it('is read in the run that times the cases', () => {
    expect(claimRuns('synthetic', [memory(atMost(1.5)), check({ subject: { caseId: 'a', variantId: 'node@24' }, other: { caseId: 'a', variantId: 'node@26' }, expect: slower(1.2) })]).map((r) => r.measure)).toEqual(['time']);
  });
});

describe('claims of an absolute peak', () => {
  // Case a's processes peak at 100 MB (±2% per process) on node@26; case b has no readings.
  const MB = 1e6;
  const run = twoCaseRun();
  for (const r of run.results) {
    if (r.caseId !== 'a' || r.variantId !== 'node@26') continue;
    for (const round of r.rounds) {
      const peakBytes = 100 * MB * (1 + 0.02 * Math.sin(round.round * 7));
      round.memory = { source: 'synthetic', openBytes: 50 * MB, sampleBytes: [], callsPerSample: 100, peakBytes, processes: 1 };
    }
  }
  const bound = (size: string, caseId = 'a'): ClaimCheck => check({ subject: { caseId, variantId: 'node@26' }, other: { caseId, variantId: 'node@26' }, expect: below(size), measure: 'peakRss' });
  const outcomes = checkClaims(run, [bound('110MB'), bound('90MB'), bound('100MB'), bound('110MB', 'b')], family);

  it('is declared alone, with its size in bytes', () => {
    const c = claim('a stays under 64 MB', { case: 'a', peakRss: below('64MB') });
    expect(c).toEqual({ says: 'a stays under 64 MB', case: 'a', is: { kind: 'below', bytes: 64e6 }, measure: 'peakRss' });
    expect(below('512MiB')).toEqual({ kind: 'below', bytes: 512 * 2 ** 20 });
    expect(() => below('64')).toThrow(/give a unit: a CPU time for a request quantile \(p99: below\('10ms'\).*or a size for peakRss/);
    expect(() => below('64 bytes')).toThrow(/write a size with its unit/);
    expect(() => claim('x', { case: 'a', than: 'b', is: below('64MB') })).toThrow(/absolute bound: write peakRss/);
    expect(() => claim('x', { case: 'a', peakRss: below('64MB'), than: 'b' } as never)).toThrow(/peakRss takes an absolute bound alone/);
  });

  it('decides from the peaks of the processes, with no other side and no A/A copy', () => {
    expect(outcomes.map((o) => o.word)).toEqual(['held', 'broken', 'undecided', 'undecided']);
    expect(outcomes[0]!.ratio! * 110 * MB).toBeCloseTo(100 * MB, -6);
    expect(outcomes[0]!.units).toBe(10);
    expect(outcomes[3]!.note).toMatch(/no resident-memory readings/);
    const [checked] = expandClaims('s', [claim('q under 64MB', { case: 'q', on: ['node@26'], peakRss: below('64MB') })], [{ id: 'q', params: {} }]);
    expect(checked!.other).toEqual(checked!.subject);
    expect(replaceVariants([checked!], [parseRuntimeList('node@24')[0]!])[0]!.other.variantId).toBe('node@24');
    expect(claimRuns('s', [checked!]).map((r) => [r.measure, r.variants])).toEqual([['time', ['node@26']]]);
  });

  it('reads as a peak against the bound, on one variant', () => {
    expect(claimedText(outcomes[0]!)).toBe('peak RSS below 110MB');
    expect(claimFigure(outcomes[0]!)).toMatch(/^peak 9\d\.\d MB \[9\d\.\d MB–9\d\.\d MB\]$/);
    const md = reporterFor('markdown')!.render(claimsView([{ run: { ...run, claims: claimsBlock(outcomes, family) } }]), {});
    expect(md).toContain('node@26');
    expect(md).not.toContain('node@26 vs node@26');
  });
});

describe('checks on a run', () => {
  const run = twoCaseRun();
  const outcomes = checkClaims(
    run,
    [
      check({ expect: same() }),
      check({ expect: slower(1.5) }),
      check({ expect: slower(3) }),
      check({ subject: { caseId: 'a', variantId: 'node@26' }, other: { caseId: 'a', variantId: 'node@24' }, expect: faster(1.4) }),
      check({ subject: { caseId: 'a', variantId: 'node@26' }, other: { caseId: 'a', variantId: 'node@22' }, expect: faster(1.4) }),
    ],
    family,
  );

  it('twice the work claimed the same is broken; the true size holds; too large a size breaks; a release claim holds', () => {
    expect(outcomes.map((o) => o.word)).toEqual(['broken', 'held', 'broken', 'held', 'undecided']);
    expect(outcomes[0]!.ratio).toBeGreaterThan(1.9);
    expect(outcomes[0]!.units).toBe(10);
    expect(outcomes[4]!.note).toMatch(/not measured/);
  });

  it('reads every word from the interval it records, and the outcome validates against the schema', () => {
    for (const o of outcomes) {
      claimOutcomeSchema.parse(o);
      const log = o.interval ? ([Math.log(o.interval[0]), Math.log(o.interval[1])] as [number, number]) : undefined;
      expect(wordOf(o.expect, log, family.threshold)).toBe(o.word);
    }
  });

  it('saves the block with the run (older runs, without one, still read)', () => {
    const saved = parseRun(JSON.parse(JSON.stringify({ ...run, claims: claimsBlock(outcomes, family) })), 'with claims');
    expect(saved.claims?.outcomes).toHaveLength(5);
    expect(parseRun(JSON.parse(JSON.stringify(twoCaseRun())), 'without').claims).toBeUndefined();
    expect(() => parseRun(JSON.parse(JSON.stringify({ ...run, claims: { ...claimsBlock(outcomes, family), version: 2 } })), 'newer')).toThrow(/claims/);
  });

  it('renders in every format, the word beside its figure and interval', () => {
    const view = claimsView([{ run: { ...run, claims: claimsBlock(outcomes, family) }, file: 'x.json' }]);
    expect(view.counts).toEqual({ held: 2, broken: 2, undecided: 1 });
    const terminal = reporterFor('terminal')!.render(view, { color: false, columns: 120 });
    expect(terminal).toMatch(/broken\s+node@26: b vs a: \+\d+\.\d% \[\+\d+\.\d%, \+\d+\.\d%\]/);
    expect(terminal).toMatch(/held\s+node@26 vs node@24: 1\.\d\d× faster \[1\.\d\d–1\.\d\d\]/);
    expect(reporterFor('markdown')!.render(view, {})).toContain('| a claim | node@26: b vs a | no detectable difference (±1%) |');
    expect(JSON.parse(reporterFor('json')!.render(view, {})).counts).toEqual(view.counts);
    expect(reporterFor('csv')!.render(view, {}).split('\n')[0]).toContain('suite,claim,checked_on');
    expect(Object.keys(JSON.parse(reporterFor('bmf')!.render(view, {})))).toHaveLength(4);
    const hostile = claimsView([{ run: { ...run, claims: claimsBlock([{ ...outcomes[0]!, says: '<script>alert(1)</script>' }], family) } }]);
    const html = reporterFor('html')!.render(hostile, {});
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script');
  });

  it('says an interrupted claims run was interrupted in every format, first in the findings page', () => {
    const view = claimsView([{ run: { ...run, status: 'interrupted', claims: claimsBlock(outcomes, family) }, file: 'x.json' }]);
    const said = /the claims run was interrupted \(1 of its 1 run\)/;
    for (const format of ['terminal', 'markdown', 'html', 'csv', 'findings']) expect(reporterFor(format)!.render(view, { color: false, columns: 120 }), format).toMatch(said);
    expect(JSON.parse(reporterFor('json')!.render(view, {})).interrupted).toMatch(said);
    const findings = reporterFor('findings')!.render(view, {}).split('\n');
    expect(findings[2]).toMatch(/^> \*\*Interrupted:\*\* the claims run was interrupted/);
    // A finished run says nothing of the kind.
    expect(reporterFor('findings')!.render(claimsView([{ run: { ...run, claims: claimsBlock(outcomes, family) }, file: 'x.json' }]), {})).not.toMatch(/interrupted/i);
  });
});

describe('a false claim: eight times the work claimed to take the same time as once', () => {
  // The check test/fixtures/claims states on each runtime, eight checks together; its real run (test/claims.test.ts, a
  // smoke run of three process pairs) asserts how it was decided, its word is asserted here.
  const eightChecks: ClaimFamily = { confidence: 0.95, size: 8, threshold: 0.01 };
  const eightTimes = check({ says: 'eight times the work takes the same time as once', subject: { caseId: 'eight times', variantId: 'node' }, other: { caseId: 'once', variantId: 'node' }, expect: same() });
  const run = (seed: number, sigma: number, rounds: number) => syntheticRun({ cases: [{ id: 'once', ns: 1000 }, { id: 'eight times', ns: 8000 }], arms: [{ id: 'node', factor: 1 }], rounds, sigma, seed });

  it('is broken over 300 runs of six process pairs (a claims run\'s first sets), quiet or noisy', () => {
    for (const sigma of [0.02, 0.1, 0.3]) for (let seed = 1; seed <= 100; seed++) expect(checkClaims(run(seed, sigma, 6), [eightTimes], eightChecks)[0]!.word, `sigma ${sigma}, seed ${seed}`).toBe('broken');
  });

  it('is never held with three process pairs, however noisy: noise only widens the interval', () => {
    const words = { held: 0, broken: 0, undecided: 0 };
    for (const sigma of [0.02, 0.3, 1]) for (let seed = 1; seed <= 100; seed++) words[checkClaims(run(seed, sigma, 3), [eightTimes], eightChecks)[0]!.word]++;
    expect(words.held).toBe(0);
    expect(words.broken).toBeGreaterThan(100);
    expect(words.undecided).toBeGreaterThan(0);
  });
});

describe('an A/A check: a variant against a second process of itself', () => {
  // The check test/fixtures/claims states, as a claims run makes it by default: six process pairs, eight checks together.
  const eight: ClaimFamily = { confidence: 0.95, size: 8, threshold: 0.01 };
  const itself = check({ says: 'a variant is at least 5% faster than itself', subject: { caseId: 'a', variantId: 'node@26' }, other: { caseId: 'a', variantId: 'node@26 #2' }, expect: faster('5%') });
  const aa = (seed: number, sigma: number) => syntheticRun({ cases: [{ id: 'a', ns: 1000 }], arms: [{ id: 'node@26', factor: 1 }, { id: 'node@26 #2', factor: 1 }], rounds: 6, sigma, seed });
  /** The copy's processes of the rounds named made `factor` times slower: the subject then looks faster. */
  const slowCopy = (run: ReturnType<typeof aa>, rounds: number[], factor: number) => {
    for (const r of run.results) if (r.variantId === 'node@26 #2') for (const x of r.rounds) if (rounds.includes(x.round)) x.samples = x.samples.map((v) => v * factor);
    return run;
  };

  it('never holds "at least 5% faster than itself" over 300 runs of six process pairs, quiet or noisy', () => {
    const words = { held: 0, broken: 0, undecided: 0 };
    for (const sigma of [0.02, 0.1, 0.3]) for (let seed = 1; seed <= 100; seed++) words[checkClaims(aa(seed, sigma), [itself], eight)[0]!.word]++;
    expect(words.held).toBe(0);
    // Quiet processes break it: the check decides, it does not just stay undecided.
    expect(words.broken).toBeGreaterThan(100);
  });

  it('one process of the copy 1.5× slower (a loaded machine) leaves it unheld; every one slower holds it', () => {
    for (let seed = 1; seed <= 50; seed++) expect(checkClaims(slowCopy(aa(seed, 0.02), [seed % 6], 1.5), [itself], eight)[0]!.word, `seed ${seed}`).not.toBe('held');
    const slower = checkClaims(slowCopy(aa(1, 0.02), [0, 1, 2, 3, 4, 5], 1.5), [itself], eight)[0]!;
    expect(slower.word).toBe('held');
    expect(slower.units).toBe(6);
  });
});

describe('planning checks', () => {
  const cases = ['p / x [size=1]', 'p / x [size=2]', 'p / y [size=1]', 'p / y [size=2]', 'q'].map((id) => ({ id, params: id.includes('size=1') ? { size: 1 } : id.includes('size=2') ? { size: 2 } : {} }));

  it('expands a case named without parameters over its combinations, paired with the same combination', () => {
    const checks = expandClaims('s', [claim('x costs twice y', { case: 'p / x', than: 'p / y', on: ['node', 'bun'], is: slower(2) })], cases);
    expect(checks.map((c) => `${c.subject.caseId}|${c.other.caseId}|${c.subject.variantId}`)).toEqual([
      'p / x [size=1]|p / y [size=1]|node',
      'p / x [size=1]|p / y [size=1]|bun',
      'p / x [size=2]|p / y [size=2]|node',
      'p / x [size=2]|p / y [size=2]|bun',
    ]);
    expect(() => expandClaims('s', [claim('z', { case: 'p / z', than: 'q', is: same() })], cases)).toThrow(/no case "p \/ z"/);
    expect(expandClaims('s', [claim('aa', { case: 'q', than: 'q', on: ['node@26'], is: faster('5%') })], cases)[0]!.other.variantId).toBe('node@26 #2');
  });

  it('plans one run per set of variants, merged where that costs no more', () => {
    const checks = expandClaims('s', [claim('a', { case: 'p / x', than: 'p / y', is: slower(2) }), claim('b', { case: 'q', on: ['node@26'], than: { variant: 'node@24' }, is: faster(2) })], cases);
    const runs = claimRuns('s', checks);
    expect(runs.map((r) => [r.variants.join(','), r.cases.length, r.checks.length])).toEqual([
      ['node,deno,bun,workerd', 4, 8],
      ['node@24,node@26', 1, 1],
    ]);
  });

  it('--runtime puts a release or build in, keeping flags; a pair of releases changes only its subject', () => {
    const checks = expandClaims('s', [claim('flag', { case: 'q', on: ['node@26 --max-semi-space-size=64'], than: { variant: 'node@26' }, is: faster(2) }), claim('rel', { case: 'q', on: ['node@26'], than: { variant: 'node@24' }, is: faster(2) }), claim('bun', { case: 'q', on: ['bun'], than: 'p / x [size=1]', is: faster(2) })], cases);
    const put = replaceVariants(checks, parseRuntimeList('node=/src/node/out/Release/node'));
    expect(put.map((c) => `${c.subject.variantId} | ${c.other.variantId}`)).toEqual(['node=/src/node/out/Release/node --max-semi-space-size=64 | node=/src/node/out/Release/node', 'node=/src/node/out/Release/node | node@24']);
    const same = replaceVariants(checks, parseRuntimeList('node@24'));
    expect(same[1]!.other.variantId).toBe('node@24 #2');
  });
});

describe('claims × releases', () => {
  const outcome = (word: 'held' | 'broken' | 'undecided', variant: string) =>
    claimOutcomeSchema.parse({ says: 'x is faster', suite: 'json-reviver', subject: { caseId: 'parse / identity reviver (arrow) [size=10kb]', variantId: variant }, other: { caseId: 'parse / identity reviver (arrow) [size=10kb]', variantId: 'node@24' }, expect: faster(1.5), measure: 'time', word, ratio: 0.6, interval: [0.5, 0.7], units: 6 });

  it('marks a claim that changed its word between neighbouring releases, skipping undecided ones, and its bisect command parses as printed', () => {
    const columns = [
      { label: 'node@22', outcomes: [outcome('broken', 'node@22')] },
      { label: 'node@24', outcomes: [outcome('undecided', 'node@24')] },
      { label: 'node@26', outcomes: [outcome('held', 'node@26')] },
    ];
    const matrix = claimsMatrix(columns, (from, to, o) => bisectCommandFor(o, parseRuntimeList(from.label)[0]!, from.label === 'node@22' ? '22.1.0' : '24.0.0', to.label === 'node@26' ? '26.10.0' : '24.0.0'));
    expect(matrix.rows).toHaveLength(1);
    expect(matrix.flips).toHaveLength(1);
    expect(matrix.flips[0]!.from).toEqual({ column: 'node@22', word: 'broken' });
    const [line] = matrix.flips[0]!.bisect;
    expect(line).toBe("npx pnpm rtbench bisect node@22.1.0..node@26.10.0 json-reviver --filter '/^parse \\/ identity reviver \\(arrow\\) \\[size=10kb\\]$/'");
    // As a shell splits it: the range, the suite and a filter that picks exactly the one case.
    const words = [...line!.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!).slice(3);
    const bisect = COMMANDS.find((c) => c.name === 'bisect')!;
    const parsed = parseCommandArgs(words.slice(1), bisect);
    expect(parsed.positionals).toEqual(['node@22.1.0..node@26.10.0', 'json-reviver']);
    expect(parseRange(parsed.positionals[0]!).toTag).toBe('26.10.0');
    const matches = caseFilter(String(parsed.flags.filter));
    expect(['parse / identity reviver (arrow) [size=10kb]', 'parse / identity reviver (arrow) [size=500kb]'].filter(matches)).toEqual(['parse / identity reviver (arrow) [size=10kb]']);
  });
});

describe('claims × versions of a package', () => {
  const ssrCases = ['react / renderToString', 'preact / renderToString'].map((id) => ({ id, params: {} }));
  const checks = expandClaims('ssr', [claim('dev is slower', { case: 'react / renderToString', on: ['workerd NODE_ENV=development'], than: { variant: 'workerd' }, is: slower(5) })], ssrCases);

  it('--across react@a,react@b pins each version in every variant of the claims of a suite that depends on it', () => {
    const columns = claimsColumns(['react@18.3.1,react@19.3.1'], undefined);
    expect(columns.map((c) => [c.label, c.pinsAlone])).toEqual([['react@18.3.1', true], ['react@19.3.1', true]]);
    const pinned = columnChecks(locateSuite('ssr'), checks, columns[0]!);
    expect(pinned.map((c) => `${c.subject.variantId} | ${c.other.variantId}`)).toEqual(['workerd NODE_ENV=development react@18.3.1 | workerd react@18.3.1']);
    // A suite that does not depend on the package has no claim the version can change.
    expect(columnChecks(locateSuite('json-reviver'), checks, columns[0]!)).toEqual([]);
    // A release of a runtime still replaces that runtime, and its pins go with it.
    expect(replaceVariants(checks, parseRuntimeList('workerd react@18.3.1')).map((c) => c.other.variantId)).toEqual(['workerd react@18.3.1']);
    // Each run is asked for with its pins (an arm as --compare takes it).
    expect(variantArgument(pinned[0]!.subject.variantId)).toBe('workerd NODE_ENV=development react@18.3.1');
    expect(() => claimsColumns(['node@24,react@19.3.1'], undefined)).toThrow(/releases of a runtime or versions of a package, not both/);
  });

  it("a claim that flipped between two versions prints the package's bisect on the subject's runtime, which parses as printed", () => {
    const flipped = claimOutcomeSchema.parse({ says: 'dev is slower', suite: 'ssr', subject: { caseId: 'react / renderToString', variantId: 'workerd NODE_ENV=development react@18.3.1' }, other: { caseId: 'react / renderToString', variantId: 'workerd react@18.3.1' }, expect: slower(5), measure: 'time', word: 'broken', ratio: 3, interval: [2.5, 3.5], units: 6 });
    const [line, ...more] = bisectCommandFor(flipped, parseRuntimeList('react@18.3.1')[0]!, '18.3.1', '19.3.1');
    expect(more).toEqual([]);
    expect(line).toBe("npx pnpm rtbench bisect 'react@18.3.1..react@19.3.1 workerd NODE_ENV=development' ssr --filter '/^react \\/ renderToString$/'");
    const range = parseRange([...line!.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!)[4]!);
    expect([range.runtime, range.fromTag, range.toTag, range.extra]).toEqual(['react', '18.3.1', '19.3.1', ['workerd', 'NODE_ENV=development']]);
  });
});

describe('history of a claim', () => {
  it('says when a claim changed its word between saved runs, passing over runs that left it undecided', () => {
    const base = twoCaseRun();
    const at = (word: 'held' | 'broken' | 'undecided') => ({ ...base, claims: claimsBlock([claimOutcomeSchema.parse({ says: 'b is twice a', suite: 'synthetic', subject: { caseId: 'b', variantId: 'node@26' }, other: { caseId: 'a', variantId: 'node@26' }, expect: slower(1.5), measure: 'time', word, units: 6 })], family) });
    const notes = claimFlipNotes([at('held'), at('undecided'), at('broken'), at('broken')], (_, i) => `run ${i + 1}`);
    expect(notes.map((n) => n.text)).toEqual(['claim flipped: synthetic: b is twice a · node@26: b vs a: held in run 1, broken in run 3']);
    expect(claimFlipNotes([base, at('held')], (_, i) => `run ${i + 1}`)).toEqual([]);
  });
});

describe("the suites' claims", () => {
  it('name real cases and variants, and each README names every claim its suite states', async () => {
    const stating: string[] = [];
    for (const location of listSuites()) {
      const claims = await suiteClaims(location);
      if (!claims.length) continue;
      stating.push(location.name);
      const { cases } = await loadSuite(location);
      expect(expandClaims(location.name, claims, cases).length).toBeGreaterThanOrEqual(claims.length);
      const readme = readFileSync(join(dirname(location.entry), 'README.md'), 'utf8').replace(/\s+/g, ' ');
      for (const c of claims) expect(readme, `${location.name}: "${c.says}"`).toContain(c.says);
    }
    expect(stating).toEqual(expect.arrayContaining(['json-reviver', 'streams', 'buffer-concat', 'trig', 'gc-pressure', 'request-relay', 'cold-start', 'http-hello']));
  });
});
