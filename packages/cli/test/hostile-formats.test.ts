/**
 * A hostile name (test/helpers/hostile-name.ts) through every format of a
 * run, a comparison, a history and claims, written with -o (the same bytes
 * stdout carries: test/faults/output-file.test.ts) by the command line in the
 * test's own process (command-run.ts): in each it is inert, and JSON keeps
 * the exact name. The real command's stdout and stderr, a release matrix and
 * a bisect's answer: test/faults/hostile-names.test.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempFile } from '../../../test/helpers/cli.ts';
import { CONTROL, HOSTILE, hostileRuns, inertMarkdown, inertText } from '../../../test/helpers/hostile-name.ts';
import { commandLine } from './usage-lines.ts';

describe('a hostile name in every format', () => {
  const dir = dirname(tempFile('x'));
  const { bench, base, head } = hostileRuns(dir);
  const claims = JSON.parse(readFileSync(join(repoRoot, 'results/claims-20261124-035723Z/08-json-reviver.json'), 'utf8')) as { claims: { outcomes: { says: string }[] } };
  for (const o of claims.claims.outcomes) o.says = HOSTILE;
  const claimsFile = join(dir, 'claims.json');
  writeFileSync(claimsFile, JSON.stringify(claims));

  const asked: [string, string[]][] = [];
  for (const format of ['terminal', 'markdown', 'csv', 'csv-stats', 'json', 'bmf', 'html', 'findings']) asked.push([`report ${format}`, ['report', bench, '--format', format]]);
  for (const format of ['terminal', 'markdown', 'json', 'html']) asked.push([`compare ${format}`, ['compare', base, head, '--format', format]]);
  for (const format of ['terminal', 'markdown', 'json', 'html']) asked.push([`history ${format}`, ['history', base, head, '--format', format]]);
  for (const format of ['terminal', 'markdown', 'findings', 'json', 'html']) asked.push([`claims ${format}`, ['report', claimsFile, '--format', format]]);

  it.each(asked)('is inert in %s', async (where, args) => {
    const out = join(dir, `${where.replace(' ', '-')}.out`);
    const said = await commandLine([...args, '-o', out]);
    expect(said.status, `${where}: ${said.stderr}`).toBe(0);
    expect(said.stderr, where).not.toMatch(CONTROL);
    const text = readFileSync(out, 'utf8');
    const format = args.at(-1)!;
    if (format === 'json' || format === 'bmf') {
      expect(text, where).not.toMatch(/[\x7f-\x9f]/);
      expect(text, where).toContain(JSON.stringify(HOSTILE).slice(1, 20));
    } else if (format === 'html') {
      expect(text, where).not.toMatch(CONTROL);
      expect(text, where).not.toContain('<b>bold');
      // A run that checked no claims has no findings: its page names no case.
    } else if (format === 'markdown' || format === 'findings') inertMarkdown(text, where, where !== 'report findings');
    else if (format === 'csv' || format === 'csv-stats') expect(text, where).not.toMatch(CONTROL);
    else inertText(text, where);
  });
});
