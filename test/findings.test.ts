/**
 * docs/findings.md is generated from a committed claims run
 * (`rtbench findings <folder> -o docs/findings.md`): this fails when the page
 * no longer matches what that run generates (a hand edit, a changed claim
 * sentence in the run, or a changed renderer without regenerating the page).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claimsView, renderFindings } from '@rtbench/report';
import { loadClaimsFolder } from '../packages/cli/src/claims/saved.ts';
import { repoRoot } from './helpers/cli.ts';

describe('docs/findings.md', () => {
  it('is what its saved claims run generates', () => {
    const page = readFileSync(join(repoRoot, 'docs/findings.md'), 'utf8');
    const source = /rtbench findings (\S+) -o docs\/findings\.md/.exec(page)?.[1];
    expect(source, 'the page names the folder it was generated from').toBeDefined();
    const regenerated = `${renderFindings(claimsView(loadClaimsFolder(join(repoRoot, source!))), source!)}\n`;
    expect(page).toBe(regenerated);
  });
});
