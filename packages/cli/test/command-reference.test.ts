/**
 * docs/reference/commands.md is made from the CLI's option declarations
 * (args/reference.ts): this fails when the committed page is not what they
 * make now, so a new or changed option cannot leave the reference behind.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_OPTIONS, COMMANDS, GLOBAL_OPTIONS, PROGRAM } from '../src/command-list.ts';
import { commandReference, REGENERATE } from '../src/args/reference.ts';

const repoRoot = join(import.meta.dirname, '..', '..', '..');

describe('the command reference', () => {
  const made = commandReference(PROGRAM, COMMANDS, GLOBAL_OPTIONS);

  it('is the committed page', () => {
    const committed = readFileSync(join(repoRoot, 'docs', 'reference', 'commands.md'), 'utf8');
    // One failure line that says what to run, rather than a diff of the whole page.
    expect(committed === made, `docs/reference/commands.md is stale: run \`${REGENERATE}\` and commit the page`).toBe(true);
  });

  it('has a section per command and a row for every option', () => {
    for (const c of COMMANDS) expect(made).toContain(`\n## ${c.name}\n`);
    for (const o of ALL_OPTIONS) expect(made).toContain(`\`--${o.name}`);
    // Help text is prose, not markup: outside code, a placeholder (`<area>`) is not an HTML tag.
    const outsideCode = made.replace(/```[^]*?```/g, '').replace(/`[^`\n]*`/g, '');
    expect(outsideCode).toContain('&lt;area>');
    expect(outsideCode).not.toMatch(/<(?!!--)[a-z]/);
  });
});
