/**
 * docs/measurements/findings.md is generated from a committed claims run
 * (`rtbench report <folder> --format findings -o docs/measurements/findings.md`): this fails when the page
 * no longer matches what that run generates (a hand edit, a changed claim
 * sentence in the run, or a changed renderer without regenerating the page).
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claimsView, reporterFor } from '@rtbench/report';
import { loadClaimsFolder } from '@rtbench/claims';
import { repoRoot } from '../../../test/helpers/cli.ts';

describe('docs/measurements/findings.md', () => {
  it('is what its saved claims run generates', () => {
    const page = readFileSync(join(repoRoot, 'docs/measurements/findings.md'), 'utf8');
    const source = /rtbench report (\S+) --format findings -o docs\/measurements\/findings\.md/.exec(page)?.[1];
    expect(source, 'the page names the folder it was generated from').toBeDefined();
    const runs = loadClaimsFolder(join(repoRoot, source!)).map((r) => ({ ...r, file: join(source!, basename(r.file)) }));
    const regenerated = reporterFor('findings')!.render(claimsView(runs), {});
    expect(page).toBe(regenerated);
  });
});
