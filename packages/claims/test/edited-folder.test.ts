/**
 * A claims folder whose stored words were edited (saved.ts through the
 * saved-run loader): report and the findings page decide each claim from the
 * samples in the files, and say which stored words the samples contradict.
 */
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ClaimOutcome } from '@rtbench/core/claims-schema';
import { reporterFor } from '@rtbench/report';
import { claimsReportView } from '../src/saved.ts';

const SOURCE = join(import.meta.dirname, '../../../results/claims-20261124-035723Z');
const FILES = ['01-buffer-concat.json', '03-gc-pressure.json'];

/** The folder's runs copied, each outcome passed through `edit`. */
function folder(edit: (o: ClaimOutcome) => ClaimOutcome): string {
  const dir = mkdtempSync(join(tmpdir(), 'rtbench-claims-edited-'));
  for (const f of FILES) {
    const run = JSON.parse(readFileSync(join(SOURCE, f), 'utf8')) as { claims: { outcomes: ClaimOutcome[] } };
    run.claims.outcomes = run.claims.outcomes.map(edit);
    writeFileSync(join(dir, f), JSON.stringify(run));
  }
  return dir;
}

describe('a claims folder whose stored outcomes were edited', () => {
  it('shows the words and ratios the samples decide, and names the claims whose stored word they contradict', () => {
    const truth = claimsReportView(folder((o) => o))!;
    expect(truth.notes).toEqual([]);
    expect(truth.counts).toEqual({ held: 10, broken: 0, undecided: 3 });

    const forged = claimsReportView(folder((o) => ({ ...o, word: o.word === 'held' ? 'broken' : 'held', ratio: 1, interval: [0.99, 1.01] })))!;
    expect(forged.counts).toEqual(truth.counts);
    expect(forged.outcomes.map((o) => [o.word, o.ratio])).toEqual(truth.outcomes.map((o) => [o.word, o.ratio]));
    expect(forged.notes.join('\n')).toMatch(/^01-buffer-concat\.json: the claims "Summing the chunk lengths.*\(saved broken, the samples say held\).* and \d+ more are not what the samples stored with them decide/m);
    expect(forged.notes.join('\n')).toMatch(/^03-gc-pressure\.json: .*saved broken, the samples say held/m);

    const page = reporterFor('findings')!.render(forged, {});
    expect(page).not.toMatch(/\+0\.0%|−0\.0%/);
    expect(page).toContain('the samples say held');
  });

  it('reads a single run file of the folder the same way', () => {
    const dir = folder((o) => ({ ...o, word: 'held' }));
    const one = claimsReportView(join(dir, FILES[0]!))!;
    expect(one.counts).toEqual({ held: 9, broken: 0, undecided: 3 });
    expect(one.notes[0]).toMatch(/saved held, the samples say undecided/);
  });

  it('keeps a file copied as it was saved', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-claims-copy-'));
    copyFileSync(join(SOURCE, FILES[1]!), join(dir, FILES[1]!));
    expect(claimsReportView(dir)!.notes).toEqual([]);
  });
});
