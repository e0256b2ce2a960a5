/**
 * Property-based tests (fast-check) for what rtbench reads from users: the
 * variant syntax, option values, and saved runs. Each property says what
 * must hold for every input, not for a handful of examples: a parse either
 * gives the value back exactly or fails with one UsageError; a saved run
 * either is refused with one UsageError or every reader can render it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { benchView, pairedComparisonView, REPORTERS, unpairedComparisonView, ViewError, type View } from '@rtbench/report';
import { UsageError } from '../../src/errors.ts';
import { MAX_DURATION_MS, parseDuration, parseMemorySize, parseWholeNumber } from '../../src/args/options.ts';
import { parseCommandArgs } from '../../src/args/args.ts';
import { COMMANDS } from '../../src/command-list.ts';
import { parseRuntimeList, parseVariant, quotePart } from '@rtbench/arms';
import { validateRun } from '@rtbench/saved-runs';
import { computeStats } from '../../../saved-runs/src/record.ts';
import { syntheticRun } from '../../../../test/compare-synthetic.ts';

/** Runs `f`; an error other than a UsageError fails the property. */
function onlyUsageErrors(f: () => void): void {
  try {
    f();
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    expect(error.message.length).toBeGreaterThan(0);
  }
}

describe('the variant syntax', () => {
  const runtime = fc.constantFrom('node', 'node@24', 'node@system', 'deno', 'bun', 'workerd', 'node=/opt/my node/bin/node', "deno=/it's/here");
  const value = fc.string({ unit: fc.oneof(fc.constantFrom(' ', "'", '"', '\\', ',', '=', '-', '\t'), fc.string({ minLength: 1, maxLength: 1 })) });
  const flag = fc.tuple(fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/), fc.option(value)).map(([name, v]) => (v === null ? `--${name}` : `--${name}=${v}`));
  const envName = fc.stringMatching(/^[A-Z_][A-Z0-9_]{0,10}$/);

  it('reads back every runtime, flag and ENV value exactly, however it is quoted, and its id reads back as itself', () => {
    fc.assert(
      fc.property(runtime, fc.array(flag, { maxLength: 4 }), fc.dictionary(envName, value, { maxKeys: 3 }), (rt, flags, env) => {
        const parts = [rt, ...flags, ...Object.entries(env).map(([k, v]) => `${k}=${v}`)];
        const spec = parseVariant(parts.map(quotePart).join(' '));
        expect(spec.runtimeSpec).toBe(rt);
        expect(spec.flags).toEqual(flags);
        expect(spec.env).toEqual(env);
        expect(parseVariant(spec.id)).toEqual(spec);
        // The same variant in a --runtime list, between others: commas inside quotes stay inside.
        expect(parseRuntimeList(`node@20, ${spec.id} ,node@22`).map((s) => s.id)).toEqual(['node@20', spec.id, 'node@22']);
      }),
      { numRuns: 400 },
    );
  });

  it('takes the examples users write', () => {
    expect(parseVariant('node@26 "NODE_OPTIONS=--a --b"').env).toEqual({ NODE_OPTIONS: '--a --b' });
    expect(parseVariant("node FOO='a b' --x=\"1 2\"")).toMatchObject({ env: { FOO: 'a b' }, flags: ['--x=1 2'], id: "node 'FOO=a b' '--x=1 2'" });
    expect(() => parseVariant('node "FOO=a')).toThrow(/quote is not closed/);
  });

  it('refuses anything else with one UsageError', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.oneof(fc.constantFrom(' ', "'", '"', '\\', ',', '=', '-', 'node', 'A'), fc.string({ minLength: 1, maxLength: 1 })) }), (text) => {
        onlyUsageErrors(() => parseVariant(text));
        onlyUsageErrors(() => parseRuntimeList(text));
      }),
      { numRuns: 400 },
    );
  });
});

describe('option values', () => {
  const bench = COMMANDS.find((c) => c.name === 'bench')!;
  const parse = (...args: string[]) => {
    const { flags, positionals } = parseCommandArgs(args, bench);
    return { flags, positionals };
  };

  it('arrive exactly as typed, numbers and leading dashes included, in both spellings', () => {
    const typed = fc.oneof(fc.string({ minLength: 1 }), fc.constantFrom('2000', '1e3', '0010', '-5ms', '-1', '0x10', ' 7 ', '-', '-h', '--'));
    fc.assert(
      fc.property(typed, (v) => {
        fc.pre(v.trim() !== '' && !v.startsWith('--'));
        expect(parse('s', '--time', v)).toEqual({ flags: { time: v }, positionals: ['s'] });
        expect(parse('--time=' + v, 's')).toEqual({ flags: { time: v }, positionals: ['s'] });
        // A list option: each use as typed, in order.
        expect(parse('s', '--filter', v, '--filter=' + v).flags).toEqual({ filter: [v, v] });
      }),
      { numRuns: 300 },
    );
    expect(() => parse('s', '--filter')).toThrow('--filter needs a value');
    expect(() => parse('s', '--filter', '--time', '1s')).toThrow('--filter needs a value');
    expect(() => parse('s', '--filter=')).toThrow(/empty/);
    expect(() => parse('s', '--time', '1s', '--time=2s')).toThrow(/given twice/);
  });

  it('every argument after --compare up to the next option is an arm, as typed; the suite is kept', () => {
    const arm = fc.string({ minLength: 1 }).filter((a) => !a.startsWith('-'));
    fc.assert(
      fc.property(fc.array(arm, { maxLength: 5 }), fc.boolean(), (arms, suiteFirst) => {
        const args = suiteFirst ? ['s', '--compare', ...arms, '--quiet'] : ['--compare', ...arms, 's'];
        expect(parse(...args)).toEqual({ flags: { compare: arms, ...(suiteFirst ? { quiet: true } : {}) }, positionals: ['s'] });
      }),
      { numRuns: 300 },
    );
  });

  it('any line is read or refused with one UsageError', () => {
    const token = fc.oneof(fc.constantFrom('--compare', '--html', '--time', '--filter', '--quiet', '-o', '--', '-h', 's', 'x.html', '-5ms', '--json=1', '--nope'), fc.string());
    fc.assert(
      fc.property(fc.array(token, { maxLength: 8 }), (args) => onlyUsageErrors(() => parse(...args))),
      { numRuns: 500 },
    );
  });

  it('durations: exactly the value with its unit, within (0, 24 h], or one UsageError', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.tuple(fc.double({ min: -10, max: 1e7, noNaN: true }), fc.constantFrom('ms', 's', 'm', '', 'h', 'us')).map(([n, u]) => `${n}${u}`)), (text) => {
        onlyUsageErrors(() => {
          const ms = parseDuration(text, '--time');
          expect(ms).toBeGreaterThan(0);
          expect(ms).toBeLessThanOrEqual(MAX_DURATION_MS);
        });
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), fc.constantFrom(['ms', 1], ['s', 1e3], ['m', 60e3]), (n, [unit, scale]) => {
        expect(parseDuration(`${n}${unit}`, '--time')).toBe(n * (scale as number));
      }),
    );
    // Hours, up to the 24 h every duration is held to.
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 24 }), (n) => {
        expect(parseDuration(`${n}h`, '--time')).toBe(n * 3600e3);
      }),
    );
  });

  it('sizes (--max-memory): bytes of at least 64 MiB, binary for K/M/G/T and KiB…TiB, decimal for KB…TB, or one UsageError', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.tuple(fc.double({ min: -10, max: 1e5, noNaN: true }), fc.constantFrom('M', 'MiB', 'MB', 'G', 'GiB', 'GB', '', 'b', 'mb')).map(([n, u]) => `${n}${u}`)), (text) => {
        onlyUsageErrors(() => {
          expect(parseMemorySize(text, '--max-memory')).toBeGreaterThanOrEqual(64 * 2 ** 20);
        });
      }),
      { numRuns: 500 },
    );
    expect(parseMemorySize('512MiB', '--max-memory')).toBe(512 * 2 ** 20);
    expect(parseMemorySize('512M', '--max-memory')).toBe(512 * 2 ** 20);
    expect(parseMemorySize('1.5GiB', '--max-memory')).toBe(1.5 * 2 ** 30);
    expect(parseMemorySize('2GB', '--max-memory')).toBe(2e9);
    expect(() => parseMemorySize('4096', '--max-memory')).toThrow(/write a size with its unit/);
    expect(() => parseMemorySize('10M', '--max-memory')).toThrow(/at least 64MiB/);
  });

  it('whole numbers: the number written in digits within its range, or one UsageError', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.integer().map(String), fc.double().map(String)), (text) => {
        onlyUsageErrors(() => {
          const n = parseWholeNumber(text, '--rounds', 1, 10_000);
          expect(Number.isInteger(n) && n >= 1 && n <= 10_000).toBe(true);
          expect(String(n)).toBe(text.trim().replace(/^0+(?=\d)/, ''));
        });
      }),
      { numRuns: 500 },
    );
  });
});

describe('the results-file reader', () => {
  const base = [
    syntheticRun({ cases: [{ id: 'a', ns: 100 }, { id: 'b', ns: 1000 }], arms: [{ id: 'node@24', factor: 1 }, { id: 'node@26', factor: 1.1 }], rounds: 3, samplesPerRound: 3, mode: 'compare' }),
    syntheticRun({ cases: [{ id: 'a', ns: 100 }], arms: [{ id: 'deno', factor: 1 }], rounds: 2, samplesPerRound: 2 }),
  ];

  /** Every reader of a saved run: the bench view, paired and unpaired comparisons, in every output format. */
  function readEverything(run: ReturnType<typeof validateRun>): void {
    computeStats(run);
    const saved = { run, file: 'x.json' };
    const renderAll = (view: View): void => {
      // html embeds the page's scripts; the other formats are plain text.
      for (const [format, reporter] of Object.entries(REPORTERS)) if (format !== 'html') reporter.render(view, { color: false, columns: 120 });
    };
    renderAll(benchView(run));
    // The compare command turns a ViewError (a run that cannot be compared) into a UsageError; anything else is a bug.
    const asCommand = (f: () => View): void => {
      try {
        renderAll(f());
      } catch (error) {
        if (!(error instanceof ViewError)) throw error;
      }
    };
    asCommand(() => pairedComparisonView(run, { threshold: 0.01, confidence: 0.95 }));
    asCommand(() => unpairedComparisonView(saved, saved, { threshold: 0.01, confidence: 0.95 }));
  }

  /** A path into a JSON value and the value there. */
  function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
    if (Array.isArray(value)) return [prefix, ...value.flatMap((v, i) => paths(v, [...prefix, i]))];
    if (value && typeof value === 'object') return [prefix, ...Object.entries(value).flatMap(([k, v]) => paths(v, [...prefix, k]))];
    return [prefix];
  }

  const degenerate = fc.oneof(
    fc.constantFrom(0, -1, 1e308, -1e-300, '', 'node@24', 'a', [], {}, null, true, [0], Number.MAX_SAFE_INTEGER),
    fc.jsonValue({ maxDepth: 2 }),
  );

  it('either refuses a damaged run with one UsageError, or every reader renders it', () => {
    fc.assert(
      fc.property(fc.constantFrom(...base), fc.boolean(), fc.nat(), fc.constantFrom('set', 'delete', 'empty', 'duplicate'), degenerate, (run, containers, pick, how, value) => {
        const json = JSON.parse(JSON.stringify(run)) as Record<string, unknown>;
        // Half the time, only arrays, objects and ids: a sample number is most of the paths but the least interesting.
        const at = (p: (string | number)[]): unknown => p.reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], json);
        const all = paths(json).filter((p) => p.length > 0 && (!containers || typeof at(p) === 'object' || p[p.length - 1] === 'id' || p[p.length - 1] === 'caseId' || p[p.length - 1] === 'variantId'));
        const path = all[pick % all.length]!;
        const parent = path.slice(0, -1).reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], json) as Record<string | number, unknown>;
        const key = path[path.length - 1]!;
        if (how === 'set') parent[key] = value;
        else if (how === 'delete') {
          if (Array.isArray(parent)) parent.splice(key as number, 1);
          else delete parent[key];
        } else if (how === 'empty') parent[key] = Array.isArray(parent[key]) ? [] : {};
        else if (Array.isArray(parent)) parent.push(JSON.parse(JSON.stringify(parent[key])));
        let read: ReturnType<typeof validateRun>;
        try {
          read = validateRun(json, 'x.json');
        } catch (error) {
          expect(error).toBeInstanceOf(UsageError);
          return;
        }
        readEverything(read);
      }),
      // Each run renders every format; fast-check draws new damage on every test run, so 150 a run cover it over runs.
      { numRuns: 150 },
    );
  });

  it('reads back a run it wrote whose median is 0 (a case below the clock step: its relative CI is unbounded)', () => {
    const run = syntheticRun({ cases: [{ id: 'a', ns: 100 }], arms: [{ id: 'deno', factor: 1 }], rounds: 3, samplesPerRound: 3 });
    for (const round of run.results[0]!.rounds) round.samples = [0, 0, 5];
    computeStats(run);
    const back = validateRun(JSON.parse(JSON.stringify(run)), 'x.json');
    expect(back.results[0]!.rounds).toHaveLength(3);
    readEverything(back);
  });

  it('refuses the damage users have met, naming it', () => {
    const broken = (edit: (r: Record<string, any>) => void): unknown => {
      const json = JSON.parse(JSON.stringify(base[0])) as Record<string, any>;
      edit(json);
      return json;
    };
    expect(() => validateRun(broken((r) => (r.results[0].rounds[0].samples = [])), 'x.json')).toThrow(/without samples/);
    expect(() => validateRun(broken((r) => (r.options.rounds = 0)), 'x.json')).toThrow(/options.rounds/);
    expect(() => validateRun(broken((r) => r.variants.pop()), 'x.json')).toThrow(/names a variant the run does not list/);
    expect(() => validateRun(broken((r) => r.cases.push(r.cases[0])), 'x.json')).toThrow(/case "a" is listed twice/);
  });
});
