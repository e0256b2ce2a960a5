/** The schedule as a value: what bench and bench --compare plan from their flags. */
import { describe, expect, it } from 'vitest';
import { ratioOptions } from '../src/verdict-flags.ts';
import { TIMING_THRESHOLD } from '../src/options/shared.ts';
import { DECIDED_MIN_PAIRS, DEFAULT_MEASURER, fewRoundsLine, makePlan, parseMeasure, roundPlanFrom, startingTimeMs } from '../src/plan.ts';
import { parsePercent } from '../src/args/options.ts';
import { UsageError } from '../src/errors.ts';
import { machinePlanHost } from '../src/plan/plan-host.ts';

const BENCH_DEFAULTS = DEFAULT_MEASURER.defaults.bench;
const COMPARE_DEFAULTS = DEFAULT_MEASURER.defaults.compare;
import { engineNamed } from '@rtbench/runtime-registry';

describe('roundPlanFrom', () => {
  it('gives a table shuffled rounds, adaptive from the minimum to a ±2% target within a time budget', () => {
    expect(roundPlanFrom({}, false)).toEqual({
      order: 'shuffled',
      rounds: BENCH_DEFAULTS.rounds,
      adaptive: { target: 0.02, maxRounds: BENCH_DEFAULTS.maxRounds, budgetMs: 60_000 },
    });
  });

  it('fixes the rounds when --rounds is given alone, and makes them the minimum with --target', () => {
    expect(roundPlanFrom({ rounds: '10' }, false)).toEqual({ order: 'shuffled', rounds: 10 });
    expect(roundPlanFrom({ rounds: '10', target: '1%', maxRounds: '40', maxTime: '2m' }, false)).toEqual({
      order: 'shuffled',
      rounds: 10,
      adaptive: { target: 0.01, maxRounds: 40, budgetMs: 120_000 },
    });
  });

  it('gives a comparison balanced, fixed rounds unless a target is asked for (then without a time budget)', () => {
    expect(roundPlanFrom({}, true)).toEqual({ order: 'balanced', rounds: COMPARE_DEFAULTS.rounds });
    expect(roundPlanFrom({ target: '1%' }, true)).toEqual({ order: 'balanced', rounds: COMPARE_DEFAULTS.rounds, adaptive: { target: 0.01, maxRounds: COMPARE_DEFAULTS.maxRounds } });
  });

  it('--stop decided stops each case when decided, from DECIDED_MIN_PAIRS process pairs unless --rounds says; precise is the default', () => {
    expect(roundPlanFrom({ stop: 'decided' }, false)).toEqual({
      order: 'shuffled',
      rounds: DECIDED_MIN_PAIRS.bench,
      adaptive: { target: 0.02, maxRounds: BENCH_DEFAULTS.maxRounds, budgetMs: 60_000, rule: 'decided' },
    });
    // A comparison's case draws at most the fixed design's rounds under the rule; --max-rounds still says.
    expect(roundPlanFrom({ stop: 'decided' }, true)).toEqual({ order: 'balanced', rounds: DECIDED_MIN_PAIRS.compare, adaptive: { target: 0.02, maxRounds: COMPARE_DEFAULTS.rounds, rule: 'decided' } });
    expect(COMPARE_DEFAULTS.rounds).toBeLessThan(COMPARE_DEFAULTS.maxRounds);
    expect(roundPlanFrom({ stop: 'decided', maxRounds: '50' }, true).adaptive?.maxRounds).toBe(50);
    expect(roundPlanFrom({ target: '2%' }, true).adaptive?.maxRounds).toBe(COMPARE_DEFAULTS.maxRounds);
    expect(roundPlanFrom({ stop: 'decided', rounds: '8' }, false).rounds).toBe(8);
    expect(roundPlanFrom({ stop: 'precise' }, false)).toEqual(roundPlanFrom({}, false));
    expect(() => roundPlanFrom({ stop: 'soon' }, false)).toThrow('--stop must be precise or decided, not "soon"');
  });

  it('counts --stop decided\'s minimum in process pairs: two rounds per process start from twice the rounds, --rounds still says', () => {
    expect(roundPlanFrom({ stop: 'decided' }, true, DEFAULT_MEASURER, 2).rounds).toBe(2 * DECIDED_MIN_PAIRS.compare);
    expect(roundPlanFrom({ stop: 'decided' }, true, DEFAULT_MEASURER, 3).rounds).toBe(3 * DECIDED_MIN_PAIRS.compare);
    expect(roundPlanFrom({ stop: 'decided', rounds: '4' }, true, DEFAULT_MEASURER, 2).rounds).toBe(4);
    // Never more than the fixed design's rounds, nor does a fixed design count in pairs.
    expect(roundPlanFrom({ stop: 'decided' }, false, DEFAULT_MEASURER, 2).rounds).toBe(BENCH_DEFAULTS.rounds);
    expect(roundPlanFrom({}, true, DEFAULT_MEASURER, 2).rounds).toBe(COMPARE_DEFAULTS.rounds);
  });
  it('refuses a cap below the minimum and a zero target, in the user’s words', () => {
    expect(() => roundPlanFrom({ rounds: '10', maxRounds: '8' }, false)).toThrow('--max-rounds 8 is below --rounds 10');
    expect(() => roundPlanFrom({ stop: 'decided', maxRounds: '0' }, true)).toThrow(/--max-rounds/);
    expect(() => roundPlanFrom({ target: '0' }, false)).toThrow('--target must be more than 0%');
    expect(() => roundPlanFrom({ maxTime: '90' }, false)).toThrow('--max-time 90: write a duration with its unit');
  });
});

describe('startingTimeMs', () => {
  const decided = (rounds: number) => ({ order: 'balanced' as const, rounds, adaptive: { target: 0.02, maxRounds: 60, rule: 'decided' as const } });

  it('gives the rule\'s own starting rounds the fixed design\'s sampling per round: --time over its rounds, not over the few', () => {
    // 3 s over 30 rounds is 100 ms a round; the rule's 10 rounds then sample 1 s in all.
    expect(startingTimeMs(3000, decided(10), { stop: 'decided' }, 30)).toBe(1000);
    expect(startingTimeMs(3000, decided(10), { stop: 'decided' }, 30) / 10).toBe(3000 / 30);
  });

  it('spreads --time over the rounds asked for, and over a fixed or precise design\'s own', () => {
    expect(startingTimeMs(1000, decided(10), { stop: 'decided', rounds: '10' }, 30)).toBe(1000);
    expect(startingTimeMs(3000, { order: 'balanced', rounds: 30 }, {}, 30)).toBe(3000);
    expect(startingTimeMs(240, { order: 'shuffled', rounds: 6, adaptive: { target: 0.02, maxRounds: 30 } }, {}, 6)).toBe(240);
  });
});

describe('ratioOptions', () => {
  const run = (measurer: string, engines: ('v8' | 'jsc' | undefined)[]) => ({
    options: { measurer } as never,
    variants: engines.map((engine, i) => ({ id: `v${i}`, runtime: 'node', spec: 'node', flags: [], ...(engine ? { engine } : {}) })) as never,
  });

  it('gives counts the threshold of the noisiest engine compared, its own per engine', () => {
    expect(ratioOptions({}, [run('instructions', ['v8', 'v8'])]).threshold).toBe(engineNamed('v8')!.counting!.threshold);
    expect(ratioOptions({}, [run('instructions', ['jsc']), run('instructions', ['jsc'])]).threshold).toBe(engineNamed('jsc')!.counting!.threshold);
    expect(ratioOptions({}, [run('instructions', ['v8', 'jsc', undefined])]).threshold).toBe(Math.max(engineNamed('v8')!.counting!.threshold, engineNamed('jsc')!.counting!.threshold));
  });

  it('keeps --threshold when given, and time its own default', () => {
    expect(ratioOptions({ threshold: '2%' }, [run('instructions', ['jsc'])]).threshold).toBe(0.02);
    expect(ratioOptions({}, [run('lockstep', ['jsc'])]).threshold).toBe(DEFAULT_MEASURER.record.verdict.threshold([]));
    // The threshold the reading commands' help names without loading a measurer is the default measurer's.
    expect(TIMING_THRESHOLD).toBe(DEFAULT_MEASURER.record.verdict.threshold([]));
  });

  it('takes the parameters runs of one measurer saved (the largest threshold), and the default for runs of different measurers', () => {
    const saved = (measurer: string, threshold: number) => ({ ...run(measurer, ['v8']), options: { measurer, verdict: { threshold, confidence: 0.9 } } as never });
    expect(ratioOptions({}, [saved('instructions', 0.004), saved('instructions', 0.007)])).toEqual({ threshold: 0.007, confidence: 0.9 });
    const timing = DEFAULT_MEASURER.record.verdict;
    expect(ratioOptions({}, [saved('instructions', 0.004), saved('lockstep', 0.03)])).toEqual({ threshold: timing.threshold([]), confidence: timing.confidence });
  });
});

describe('a measurer that cannot work on the platform', () => {
  it('is refused before anything is resolved or run, in one line naming the platform and the way out (a usage error: exit 2)', async () => {
    const refusal = makePlan('trig', { measure: 'instructions', runtime: ['node'] }, undefined, { ...machinePlanHost(), platform: 'darwin-arm64' });
    await expect(refusal).rejects.toBeInstanceOf(UsageError);
    await expect(refusal).rejects.toThrow(
      /^instructions \(instructions per operation\) does not work on darwin-arm64: instruction counts need valgrind, .*; measure time instead, or count on a Linux machine$/,
    );
    expect(((await refusal.catch((e: UsageError) => e)) as UsageError).errors).toHaveLength(1);
  });
});

describe('a --timeout that no process fits', () => {
  it('is refused when not even the shortest warmup and the sampling fit in it: every process would be killed', async () => {
    const refusal = makePlan('trig', { runtime: ['node'], timeout: '50ms', warmup: '20ms', time: '240ms', rounds: '6' });
    await expect(refusal).rejects.toThrow(/^--timeout 50ms is not longer than what each process is asked to run \(at least 20 ms of warmup \+ 40 ms of sampling\)/);
  });
});

describe('a comparison of fixed rounds too few for an interval', () => {
  it('is said as a line the plan carries (bench prints it; a planner that adds or pools sets says its own)', () => {
    expect(fewRoundsLine({ order: 'balanced', rounds: 2 })).toBe('--rounds 2: 2 independent process pairs, fewer than the 3 an interval needs; every ratio will be inconclusive');
    expect(fewRoundsLine({ order: 'balanced', rounds: 4 }, 2)).toBe('--rounds 4 with 2 rounds per process: 2 independent process pairs, fewer than the 3 an interval needs; every ratio will be inconclusive');
  });

  it('is not said with enough pairs, nor of rounds that are added while an interval is too wide', () => {
    expect(fewRoundsLine({ order: 'balanced', rounds: 3 })).toBeUndefined();
    expect(fewRoundsLine({ order: 'balanced', rounds: 2, adaptive: { target: 0.02, maxRounds: 16 } })).toBeUndefined();
  });
});

describe('--measure, --schedule and a percentage as written', () => {
  it('--measure: time (the default, spaces around it allowed) is no measurer of its own; instructions is; anything else names both', () => {
    expect(parseMeasure(undefined)).toBeUndefined();
    expect(parseMeasure(' time ')).toBeUndefined();
    expect(parseMeasure(' instructions ')?.name).toBe('instructions');
    expect(() => parseMeasure('cycles')).toThrow(UsageError);
    expect(() => parseMeasure('cycles')).toThrow(/^--measure cycles: expected time \(the default\) or instructions \(instructions per operation, under valgrind[^)]*\)$/);
  });

  it('--schedule: an unknown one is refused in one line listing each, the default marked, the last after "or"', async () => {
    const refusal = makePlan('trig', { runtime: ['node'], schedule: 'sometimes' });
    await expect(refusal).rejects.toBeInstanceOf(UsageError);
    const message = ((await refusal.catch((e: Error) => e)) as Error).message;
    expect(message).toMatch(new RegExp(`^--schedule sometimes: expected ${DEFAULT_MEASURER.name} \\(.*; the default\\), .* or [\\w-]+ \\(.*\\)$`));
    expect(message.split('; the default')).toHaveLength(2);
  });

  it('a percentage: with or without %, from 0 up to but not 100, else refused naming the option', () => {
    expect(parsePercent('1', '--threshold')).toBe(0.01);
    expect(parsePercent(' 2.5% ', '--threshold')).toBe(0.025);
    expect(parsePercent(0, '--threshold')).toBe(0);
    expect(parsePercent('99.9', '--threshold')).toBeCloseTo(0.999, 12);
    for (const bad of ['100', '100%', '-1', '1.', '.5', 'x1', '1%%', '']) expect(() => parsePercent(bad, '--threshold'), bad).toThrow(`--threshold ${bad}: expected a percentage from 0 to 99, e.g. 1 or 2.5%`);
  });
});
