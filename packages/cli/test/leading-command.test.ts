/**
 * The command a line names, found without the commands' options where the
 * line makes it plain (command-run.ts), so `--version` is answered before the
 * commands are loaded: the same answer the commands' options give.
 */
import { describe, expect, it } from 'vitest';
import { splitCommand } from '../src/args/args.ts';
import { ALL_OPTIONS } from '../src/command-list.ts';
import { leadingCommand } from '../src/command-run.ts';

describe('the command a line names', () => {
  it("is its first word, or none when it holds global flags only: as the commands' options would say", () => {
    for (const argv of [['bench', 's', '--quiet'], ['report'], ['nope', '--x'], ['--version'], ['-v'], ['-h'], ['--no-color', '--version'], []]) {
      expect(leadingCommand(argv)).toEqual(splitCommand(argv, ALL_OPTIONS));
    }
  });

  it("is left to the commands' options when options come first (which of them take a value, only those say)", () => {
    for (const argv of [['--format', 'json', 'report', 'r.json'], ['--no-color', '--filter', 'bench', 'bench', 's'], ['--version=1'], ['-hv'], ['-']]) {
      expect(leadingCommand(argv)).toBeUndefined();
    }
  });
});
