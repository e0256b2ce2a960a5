/**
 * The command line as the declarations read it (packages/cli/src/args/args.ts,
 * and each command's module, commands/), without starting anything: values exactly as typed,
 * repeated and multi-value options, an option that takes the arguments after
 * it, an optional value, options before the command, and --help made from the
 * same declarations.
 */
import { describe, expect, it } from 'vitest';
import { optionLabel, parseCommandArgs, splitCommand, type ParsedArgs } from '../src/args/args.ts';
import { ALL_OPTIONS, COMMANDS, GLOBAL_OPTIONS, PROGRAM } from '../src/command-list.ts';
import { commandHelp, rootHelp } from '../src/args/help.ts';
import { UsageError } from '../src/errors.ts';
import { parseProfileKinds } from '../src/args/profiles.ts';

const commandNamed = (name: string) => COMMANDS.find((c) => c.name === name)!;
/** Flags and positionals (the notes are test/cli-names.test.ts's). */
const parse = (name: string, ...args: string[]): Omit<ParsedArgs, 'notes'> => {
  const { flags, positionals } = parseCommandArgs(args, commandNamed(name));
  return { flags, positionals };
};
const refused = (name: string, ...args: string[]): string => {
  try {
    parse(name, ...args);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).not.toContain('\n');
    return (error as Error).message;
  }
  throw new Error(`${name} ${args.join(' ')} was accepted`);
};

describe('values', () => {
  it('arrive as typed: numbers stay text, a value may start with one dash', () => {
    expect(parse('bench', 's', '--filter', '2000', '--time', '-5ms', '--seed', '-1', '--rounds', '0010', '--shard', '1/2').flags).toEqual({
      filter: ['2000'],
      time: '-5ms',
      seed: '-1',
      rounds: '0010',
      shard: '1/2',
    });
    expect(parse('bench', 's', '--filter=1e3', '--target= 7 ', '-o', '-').flags).toEqual({ filter: ['1e3'], target: ' 7 ', output: '-' });
    expect(parse('report', '-ofile.md').flags).toEqual({ output: 'file.md' });
  });

  it('refuses a missing, empty or repeated value, and a value given to a flag, in one line each', () => {
    expect(refused('bench', 's', '--time')).toBe('--time needs a value');
    expect(refused('bench', 's', '--time', '--rounds', '3')).toBe('--time needs a value');
    expect(refused('bench', 's', '--filter', '')).toBe('--filter needs a value (it was empty)');
    expect(refused('bench', 's', '--time', '1s', '--time=2s')).toBe('--time is given twice ("1s" and "2s")');
    expect(refused('report', '-o', 'a', '--output', 'b')).toBe('--output is given twice ("a" and "b")');
    expect(refused('bench', 's', '--quiet=yes')).toBe('--quiet takes no value (got "yes")');
    expect(refused('bench', 's', '--html', 'a.html', '--html')).toBe('--html is given twice');
  });

  it('refuses an unknown option, naming the nearest one and where the list is', () => {
    expect(refused('bench', 's', '--no-such-option')).toMatch(/^Unknown option `--no-such-option`: `rtbench bench --help` lists the options$/);
    expect(refused('bench', 's', '--round', '3')).toMatch(/did you mean --rounds\?/);
    expect(refused('report', '-x')).toMatch(/^Unknown option `-x`/);
    // An option of another command is unknown to this one.
    expect(refused('report', '--rounds', '3')).toMatch(/^Unknown option `--rounds`/);
  });

  it('says an engine flag written after a variant goes inside its quotes, with the command corrected', () => {
    expect(refused('bench', 'gc-pressure', '--runtime', 'node', '--max-semi-space-size=64')).toBe(
      'Unknown option `--max-semi-space-size=64`: if it is an engine flag, it goes inside the variant\'s quotes, as in `rtbench bench gc-pressure --runtime "node --max-semi-space-size=64"`',
    );
    expect(refused('bench', 'gc-pressure', '--runtime=node@24,node@26', '--jitless')).toMatch(/as in `rtbench bench gc-pressure --runtime="node@24,node@26 --jitless"`$/);
    expect(refused('bench', 'gc-pressure', '--compare', 'node@26', 'node@26', '--max-semi-space-size=64')).toMatch(/as in `rtbench bench gc-pressure --compare node@26 "node@26 --max-semi-space-size=64"`$/);
    // A typo of an option of rtbench's after a variant: the option it is near.
    expect(refused('bench', 'gc-pressure', '--runtime', 'node', '--round', '3')).toMatch(/did you mean --rounds\?/);
    // Not after a variant: an unknown option as before.
    expect(refused('bench', 'gc-pressure', '--max-semi-space-size=64', '--runtime', 'node')).toMatch(/^Unknown option `--max-semi-space-size`/);
  });
});

describe('options given more than once, options with several values', () => {
  it('--runtime and --filter may be repeated: one value per use, in order', () => {
    expect(parse('bench', 's', '--runtime', 'node@24,deno', '--runtime', 'node@26 --jitless', '--filter', 'a', '--filter', '/b|c/').flags).toEqual({
      runtime: ['node@24,deno', 'node@26 --jitless'],
      filter: ['a', '/b|c/'],
    });
    expect(parse('history', '--runtime', 'node', '--runtime=deno').flags).toEqual({ runtime: ['node', 'deno'] });
  });

  it('--compare takes the arguments after it, up to the next option, in every spelling, repeats included', () => {
    expect(parse('bench', 'x', '--compare', 'node@24', 'node@26 --max-semi-space-size=64', '--rounds', '3')).toEqual({
      flags: { compare: ['node@24', 'node@26 --max-semi-space-size=64'], rounds: '3' },
      positionals: ['x'],
    });
    expect(parse('bench', 'x', '--compare=node@24,node@26').flags.compare).toEqual(['node@24,node@26']);
    expect(parse('bench', 'x', '--compare', 'a', '--quiet', '--compare', 'b', 'c').flags).toEqual({ compare: ['a', 'b', 'c'], quiet: true });
    expect(parse('bench', 'x', '--compare', 'a', '--compare=b', '--compare', 'c').flags.compare).toEqual(['a', 'b', 'c']);
    // A value written with the option stays an arm: the suite is not taken from it.
    expect(() => parse('bench', '--compare=a,b')).toThrow(/name a suite/);
    expect(parse('bench', 'x', '--compare').flags.compare).toEqual([]);
    expect(parse('bench', 'x').flags.compare).toBeUndefined();
  });

  it('--compare leaves the command its suite: the last argument when none comes before', () => {
    expect(parse('bench', '--compare', 'node@24', 'node@26', 'json-reviver')).toEqual({ flags: { compare: ['node@24', 'node@26'] }, positionals: ['json-reviver'] });
    expect(parse('bench', '--compare', 'a', 'b', 'test/fixtures/tiny/index.ts', '--quiet').positionals).toEqual(['test/fixtures/tiny/index.ts']);
    expect(parse('run', '--compare', 'a', 'b', 'file.mjs').positionals).toEqual(['file.mjs']);
    // A suite already named: every argument after --compare is an arm (parseCompareArms says when one is a suite).
    expect(parse('bench', 's', '--compare', 'a', 's').flags.compare).toEqual(['a', 's']);
    // After `--`, arguments are the command's own.
    expect(parse('bench', '--compare', 'a', 'b', '--', 's')).toEqual({ flags: { compare: ['a', 'b'] }, positionals: ['s'] });
  });

  it('--html is a flag or takes one file, leaving the suite', () => {
    expect(parse('bench', 's', '--html').flags.html).toBe(true);
    expect(parse('bench', 's', '--html', 'page.html').flags.html).toBe('page.html');
    expect(parse('bench', 's', '--html=page.html').flags.html).toBe('page.html');
    expect(parse('bench', '--html', 's')).toEqual({ flags: { html: true }, positionals: ['s'] });
    expect(parse('bench', '--html', 'page.html', 's')).toEqual({ flags: { html: 'page.html' }, positionals: ['s'] });
  });

  it('--profile alone is CPU profiles; a value names the kinds, leaving the suite', () => {
    expect(parse('bench', 's', '--profile').flags.profile).toBe(true);
    expect(parse('bench', '--profile', 's')).toEqual({ flags: { profile: true }, positionals: ['s'] });
    expect(parse('bench', '--profile', 'alloc', 's')).toEqual({ flags: { profile: 'alloc' }, positionals: ['s'] });
    expect(parse('bench', 's', '--profile', 'cpu,alloc', '--compare', 'a', 'b').flags).toEqual({ profile: 'cpu,alloc', compare: ['a', 'b'] });
    expect(parseProfileKinds(true)).toEqual(['cpu']);
    expect(parseProfileKinds('alloc')).toEqual(['alloc']);
    expect(parseProfileKinds('alloc,cpu')).toEqual(['cpu', 'alloc']);
    expect(parseProfileKinds(' CPU , alloc ,alloc')).toEqual(['cpu', 'alloc']);
    expect(() => parseProfileKinds('memory')).toThrow(/--profile takes cpu, alloc, native or several comma-separated \(got "memory"\)/);
    const perf = { RTBENCH_PERF: process.execPath };
    expect(parseProfileKinds('native,cpu', perf)).toEqual(['cpu', 'native']);
    expect(parseProfileKinds('perf', perf)).toEqual(['native']);
    // A mistyped suite after --profile is read as its value, and refused as such rather than run.
    expect(() => parseProfileKinds(parse('bench', 's', '--profile', 'extra').flags.profile as string)).toThrow(UsageError);
  });

  it('--profile native without perf stops in one line that says how to install it (a usage error: exit 2)', () => {
    const missing = (env: NodeJS.ProcessEnv): string => {
      try {
        parseProfileKinds('cpu,native', env);
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return (error as Error).message;
      }
      throw new Error('no error');
    };
    const onPath = missing({ PATH: '/nonexistent' });
    expect(onPath).toMatch(/^--profile native needs perf, which is not on PATH: install it with `sudo apt-get install -y linux-perf`/);
    expect(onPath).not.toContain('\n');
    expect(missing({ RTBENCH_PERF: '/nonexistent/perf' })).toMatch(/^--profile native: RTBENCH_PERF=\/nonexistent\/perf is not an executable file; install it with/);
  });
});

describe('positional arguments', () => {
  it('says what is missing or left over in one line with the usage', () => {
    expect(refused('bench')).toBe('rtbench bench <suite...>: name a suite (`rtbench suites` lists them) or a suite folder');
    expect(refused('run', '--quiet')).toBe('rtbench run <file>: name a benchmark file written for mitata, tinybench, vitest bench(), benchmark.js, node:bench, Deno.bench, or a Node.js core benchmark/<area>/<file>.js; or a Worker: a module with `export default { fetch }`, a wrangler project folder or its wrangler.json(c)/.toml');
    expect(refused('report', 'a.json', 'extra')).toBe('rtbench report [run]: unexpected argument "extra"');
    expect(refused('compare', 'a', 'b', 'c')).toBe('rtbench compare <run> [other]: unexpected argument "c"');
    expect(refused('merge', '--save', 'm.json')).toMatch(/^rtbench merge <shards\.\.\.>: /);
    expect(parse('merge', 'a.json', 'b.json', '--save', 'm.json')).toEqual({ flags: { save: 'm.json' }, positionals: ['a.json', 'b.json'] });
    expect(parse('history').positionals).toEqual([]);
  });

  it('--help and --version answer on their own, whatever else the line holds', () => {
    expect(parse('bench', '--help').flags).toEqual({ help: true });
    expect(parse('bench', '--no-such', '-h').flags).toEqual({ help: true });
    expect(parse('merge', '-v').flags).toEqual({ version: true });
  });
});

describe('the command', () => {
  it('is the first argument that is neither an option nor its value, so options may come first', () => {
    expect(splitCommand(['bench', 's', '--quiet'], ALL_OPTIONS)).toEqual({ name: 'bench', rest: ['s', '--quiet'] });
    expect(splitCommand(['--format', 'json', 'report', 'r.json'], ALL_OPTIONS)).toEqual({ name: 'report', rest: ['--format', 'json', 'r.json'] });
    expect(splitCommand(['--no-color', '--filter', 'bench', 'bench', 's'], ALL_OPTIONS)).toEqual({ name: 'bench', rest: ['--no-color', '--filter', 'bench', 's'] });
    expect(splitCommand(['--version'], ALL_OPTIONS)).toEqual({ rest: ['--version'] });
  });

  it('declares each option with one kind across commands, so the command can be found before its options are known', () => {
    for (const c of COMMANDS) {
      for (const o of c.options) {
        const same = ALL_OPTIONS.find((x) => x.name === o.name)!;
        expect({ command: c.name, option: o.name, kind: o.kind, short: o.short }).toEqual({ command: c.name, option: o.name, kind: same.kind, short: same.short });
      }
      expect(new Set(c.options.map((o) => o.name)).size, c.name).toBe(c.options.length);
    }
  });
});

describe('--help', () => {
  it('lists every option a command declares, with its text, and the global ones', () => {
    for (const c of COMMANDS) {
      const text = commandHelp(c, 'rtbench/0.0.0', 100);
      expect(text).toContain(`Usage: rtbench ${c.name}`);
      for (const o of c.options) {
        expect(text, `${c.name} ${o.name}`).toContain(optionLabel(o));
        // The text is wrapped: compare it word by word.
        expect(text.replace(/\s+/g, ' '), `${c.name} ${o.name}`).toContain(o.help.replace(/\s+/g, ' '));
      }
      for (const line of text.split('\n')) expect(line.length, line).toBeLessThanOrEqual(100);
    }
    const root = rootHelp(PROGRAM, COMMANDS, GLOBAL_OPTIONS, 'rtbench/0.0.0', 100);
    for (const c of COMMANDS) expect(root).toMatch(new RegExp(`^  ${c.name}\\b`, 'm'));
  });
});
