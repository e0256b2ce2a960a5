/**
 * Plain mistakes the command line finds once the runtimes it names have
 * answered their probe (a case filter, a runtime's name): each a single clear
 * line and exit code 2, nothing run. The command line runs in the test's own
 * process (command-run.ts), so each costs a runtime's probe, not a CLI start;
 * usage-errors.test.ts has the mistakes found before any runtime is asked,
 * test/faults/usage.test.ts the real command (and a broken suite, which only
 * the real command loads as a user's would be).
 */
import { describe, expect, it } from 'vitest';
import { fixture } from '../../../test/helpers/cli.ts';
import { commandLine, expectUsageError } from './usage-lines.ts';

describe.concurrent('mistakes found once a runtime answered', () => {
  const bench = (...extra: string[]): string[] => ['bench', fixture('tiny'), '--runtime', 'node', ...extra];

  it.each([
    [['--filter', '2000'], /--filter "2000" matches no case/],
    // Repeated list options are read, every one of them.
    [['--runtime', 'nodejs@99'], /unknown runtime "nodejs@99"\. Known: .*node@24/],
    [['--runtime', 'node', '--runtime', 'nodejs@98'], /unknown runtime "nodejs@98"/],
    [['--filter', 'nothing', '--filter', '2000'], /--filter "nothing,2000" matches no case/],
    [['--filter', '/(a+)+$/'], /--filter "\/\(a\+\)\+\$\/" matches no case/],
    [['--filter', '/(a)\\1/'], /--filter \/\(a\)\\1\/: .*linear time/],
    [['--html', '/sys/x.html'], /--html \/sys\/x\.html: no file can be created in \/sys/],
  ])('bench %j', (extra, message) => expectUsageError(bench(...extra), message));

  it('reads --compare up to the suite after it, --html without a file, and options before the command', async () => {
    await expectUsageError(['bench', '--compare', 'node@24', 'nodejs@99', fixture('tiny')], /unknown runtime "nodejs@99"/);
    await expectUsageError(['bench', '--html', fixture('tiny'), '--runtime', 'nodejs@99'], /unknown runtime "nodejs@99"/);
    await expectUsageError(['--runtime', 'nodejs@99', 'bench', fixture('tiny')], /unknown runtime "nodejs@99"/);
  });

  it('prints a message that goes on with a list under its first line, a line each, the first ten and a count, never a literal \\n', async () => {
    const said = await commandLine(['bench', 'json-reviver', '--runtime', 'node', '--filter', 'no such case']);
    expect(said.status, said.stderr).toBe(2);
    const lines = said.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe('error: --filter "no such case" matches no case. Cases:');
    expect(said.stderr).toContain('parse / no reviver [size=10kb]');
    expect(lines.slice(1, 11).every((l) => /^ {4}\S/.test(l))).toBe(true);
    expect(lines.slice(11)).toEqual([expect.stringMatching(/^ {2}… and \d+ more$/)]);
    expect(said.stderr).not.toContain('\\n');
  });
});
