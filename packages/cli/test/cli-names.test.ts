/**
 * Names a user cannot mix up (issue: `--out` saved the run while `-o/--output`
 * wrote the rendered output): the run is saved with `--save`, the old
 * spelling still works with one note; options that mean the same on several
 * commands are accepted by every command that prints; `rtbench runtimes`
 * fits 100 columns. Nothing is started.
 */
import { describe, expect, it } from 'vitest';
import { parseCommandArgs } from '../src/args/args.ts';
import { COMMANDS } from '../src/command-list.ts';
import type { RuntimeRow } from '@rtbench/arms';
import { runtimesTable, wrapPath } from '../src/commands/runtimes.ts';
import { UsageError } from '../src/errors.ts';
import { listingFormat } from '../src/listing.ts';

const commandNamed = (name: string) => COMMANDS.find((c) => c.name === name)!;
const positional: Record<string, string[]> = { bisect: ['node@24.0.0..node@24.1.0', 's'], releases: ['node@latest~3', 's'], bench: ['s'], run: ['f.mjs'], compare: ['a.json'], merge: ['a.json'], report: [], history: [], runtimes: [], suites: [], claims: [] };

describe('saving the run and writing the output have names that cannot be confused', () => {
  it('--save saves the run on bench, run and merge; --out still works, with one note naming both', () => {
    for (const name of ['bench', 'run', 'merge']) {
      const saved = parseCommandArgs([...positional[name]!, '--save', 'r.json', '-o', 'table.txt'], commandNamed(name));
      expect(saved.flags).toMatchObject({ save: 'r.json', output: 'table.txt' });
      expect(saved.notes).toEqual([]);
      const old = parseCommandArgs([...positional[name]!, '--out', 'r.json'], commandNamed(name));
      expect(old.flags).toEqual({ save: 'r.json' });
      expect(old.notes).toHaveLength(1);
      expect(old.notes[0]).toMatch(/`--out` is now `--save`.*`-o\/--output` writes the rendered/);
    }
    // Both spellings at once are one option given twice.
    expect(() => parseCommandArgs(['s', '--out', 'a.json', '--save', 'b.json'], commandNamed('bench'))).toThrow(/--save is given twice/);
  });

  it('every command that prints takes --quiet, --format, --json and -o/--output, declared once', () => {
    for (const c of COMMANDS) {
      const parsed = parseCommandArgs([...positional[c.name]!, '--quiet', '--format', 'json', '--json', '-o', 'x'], c);
      expect(parsed.flags, c.name).toEqual({ quiet: true, format: 'json', json: true, output: 'x' });
    }
    // The shared ones are the same declaration on every command, so their help and meaning cannot drift.
    for (const name of ['quiet', 'output', 'json']) {
      const specs = new Set(COMMANDS.map((c) => c.options.find((o) => o.name === name)));
      expect(specs.size, name).toBe(1);
    }
  });

  it('runtimes and suites list as terminal or json, and say so for another format', () => {
    expect(listingFormat({})).toBe('terminal');
    expect(listingFormat({ format: 'table' })).toBe('terminal');
    expect(listingFormat({ json: true })).toBe('json');
    expect(() => listingFormat({ format: 'csv' })).toThrow(UsageError);
    expect(() => listingFormat({ format: 'csv' })).toThrow(/--format csv: this command lists as terminal or json/);
    expect(() => listingFormat({ format: 'terminal', json: true })).toThrow(/choose one output format/);
  });
});

describe('rtbench runtimes', () => {
  const longPath = `node_modules/.pnpm/@cloudflare+workerd-linux-64@1.20261117.1/node_modules/@cloudflare/workerd-linux-64/bin/${'deep/'.repeat(12)}workerd`;
  const rows: RuntimeRow[] = [
    { spec: 'node@26', available: true, version: '26.10.0', engine: 'V8 14.6.202.34-node.34', binary: '/usr/bin/node', source: 'npm', from: 'workspace', note: '' },
    { spec: 'workerd', available: true, version: '2026-11-17', engine: 'V8 15.8.62.5', binary: `/${longPath}`, source: 'npm', from: 'workspace', note: '' },
    { spec: 'bun', available: true, version: '1.4.5', engine: `JavaScriptCore ${'d6375c72affe'.padEnd(40, '0')}`, binary: '/b/bun', source: 'npm', from: 'cache', note: '' },
    { spec: 'deno@system', available: false, note: `deno@system: no deno on PATH ${'and a long explanation '.repeat(8)}` },
  ];

  it('fits 100 columns: a line per runtime, the binary (or why it cannot run) under it, long paths broken at a slash', () => {
    const lines = runtimesTable(rows, false);
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(100);
    expect(lines[0]).toMatch(/^runtime +version +engine +from$/);
    expect(lines.slice(2).filter((l) => /^\S/.test(l)).map((l) => l.split(/ +/)[0])).toEqual(['node@26', 'workerd', 'bun', 'deno@system']);
    // The path is all there, in order, across its lines.
    const under = lines.slice(lines.findIndex((l) => l.startsWith('workerd')) + 1, lines.findIndex((l) => l.startsWith('bun')));
    expect(under.map((l) => l.trim()).join('')).toBe(`/${longPath}`);
    // A WebKit revision is cut to 12 digits.
    expect(lines.find((l) => l.startsWith('bun'))).toContain('JavaScriptCore d6375c72affe ');
  });

  it('wrapPath breaks only after a slash and keeps every character', () => {
    expect(wrapPath('/a/bb/ccc', 4)).toEqual(['/a/', 'bb/', 'ccc']);
    expect(wrapPath(longPath, 30).join('')).toBe(longPath);
    for (const l of wrapPath(longPath, 30).slice(0, -1)) expect(l.endsWith('/')).toBe(true);
  });
});
