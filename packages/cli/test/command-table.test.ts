/**
 * The command table a start loads its command from (command-table.ts): one
 * loader per command, in --help's order, each giving the command that
 * command-list.ts lists; and the command a line names, found without every
 * command's options where the line makes it plain (command-run.ts).
 */
import { describe, expect, it } from 'vitest';
import { splitCommand } from '../src/args/args.ts';
import { ALL_OPTIONS, COMMANDS } from '../src/command-list.ts';
import { leadingCommand } from '../src/command-run.ts';
import { COMMAND_MODULES } from '../src/command-table.ts';

describe('the command table', () => {
  it('loads each listed command, under its name, in the listed order', async () => {
    expect(Object.keys(COMMAND_MODULES)).toEqual(COMMANDS.map((c) => c.name));
    for (const c of COMMANDS) expect(await COMMAND_MODULES[c.name]!()).toBe(c);
  });
});

describe('the command a line names', () => {
  it('is its first word, or none when it holds global flags only: as every command\'s options would say', () => {
    for (const argv of [['bench', 's', '--quiet'], ['report'], ['nope', '--x'], ['--version'], ['-h'], ['--no-color', '--help'], []]) {
      expect(leadingCommand(argv)).toEqual(splitCommand(argv, ALL_OPTIONS));
    }
  });

  it('is left to every command\'s options when options come first (which of them take a value, only those say)', () => {
    for (const argv of [['--format', 'json', 'report', 'r.json'], ['--no-color', '--filter', 'bench', 'bench', 's'], ['--version=1'], ['-hv'], ['-']]) {
      expect(leadingCommand(argv)).toBeUndefined();
    }
  });
});
