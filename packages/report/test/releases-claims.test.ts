/**
 * A release matrix's claims in its report and on its page, from a made-up
 * view: the markdown has one line per claim that changed its word between two
 * releases of a track (and says so when none did; nothing when no claims run
 * was given), the terminal text adds the bisects, and the page's data holds
 * each track's claims × releases with every cell's word and figure.
 */
import { describe, expect, it } from 'vitest';
import type { ClaimOutcome, ClaimWord } from '@rtbench/core/claims-schema';
import { reporterFor, type ReleaseMatrixView } from '../src/index.ts';
import { releasesPageData } from '../src/html/releases-data.ts';
import { claimsMatrix, type TrackAnalysis } from '@rtbench/verdicts';

function outcome(says: string, word: ClaimWord, ratio: number): ClaimOutcome {
  return { says, suite: 'json-reviver', subject: { caseId: 'parse / arrow', variantId: 'node@x' }, other: { caseId: 'parse / plain', variantId: 'node@x' }, expect: { kind: 'slower', factor: 3 }, measure: 'time', word, ratio, interval: [ratio * 0.9, ratio * 1.1], units: 6 };
}

const SAYS = 'A reviver makes JSON.parse | at least 3× slower';

function trackWith(words: [ClaimWord, ClaimWord][] | undefined, key = 'node × json-reviver'): TrackAnalysis {
  const releases = ['25.9.0', '26.0.0', '26.1.0'];
  const track: TrackAnalysis = { track: { key, runtime: 'node', extra: [], suite: 'json-reviver', range: 'node@25.9.0..node@26.1.0', listed: releases, releases }, engines: {}, cases: [], setsMeasured: 12, setsWanted: 12 };
  if (!words) return track;
  const columns = ['25.9.0', '26.0.0'].map((label, k) => ({ label, versionText: `V8 ${k}`, outcomes: words.map(([a, b], i) => outcome(`${SAYS} (${i})`, k ? b : a, k ? (b === 'held' ? 3.5 : 2) : 3.5)) }));
  return { ...track, claims: claimsMatrix(columns, (from, to) => [`rtbench bisect node@${from.label}..node@${to.label} json-reviver --filter '/^parse \\/ arrow$/'`], () => ({ subject: { caseId: 'arrow', variantId: 'node' }, other: { caseId: 'plain', variantId: 'node' } })) };
}

const drawn = { color: false, columns: 100 };
const releasesMarkdown = (v: ReleaseMatrixView): string => reporterFor('markdown')!.render(v, drawn);
const releasesText = (v: ReleaseMatrixView): string => reporterFor('terminal')!.render(v, drawn);

function view(...tracks: TrackAnalysis[]): ReleaseMatrixView {
  return { kind: 'releases', threshold: 0.01, tracks, changePoints: [], comparisons: 6, confidence: 0.95, folder: '/tmp/m' };
}

describe('a release matrix with claims', () => {
  it('reports one line per claim that changed its word between releases, with the track', () => {
    const v = view(trackWith([['held', 'broken'], ['held', 'held'], ['undecided', 'broken']]));
    const md = releasesMarkdown(v);
    expect(md).toContain('### Claims that changed between releases (1)');
    const lines = md.split('\n').filter((l) => l.startsWith('- **node × json-reviver**'));
    expect(lines).toEqual(['- **node × json-reviver**: A reviver makes JSON.parse \\| at least 3× slower (0) · node: arrow vs plain: held on 25.9.0, broken on 26.0.0']);
    const text = releasesText(v);
    // Wrapped to the 100 columns: the lines after the first indented under it.
    expect(text).toContain('claims that changed between releases: 1\n  node × json-reviver: A reviver makes JSON.parse | at least 3× slower (0) · node: arrow vs plain:\n    held on 25.9.0, broken on 26.0.0\n    rtbench bisect node@25.9.0..node@26.0.0 json-reviver');
  });

  it('says what it looked at when no claim changed, and nothing of claims when no claims run was given', () => {
    const none = releasesMarkdown(view(trackWith([['held', 'held'], ['broken', 'broken']]), trackWith(undefined, 'bun × json-reviver')));
    expect(none).toContain('### Claims that changed between releases (0)\n\nNone: 2 checks on 2 releases kept their word or stayed undecided.');
    for (const out of [releasesMarkdown(view(trackWith(undefined))), releasesText(view(trackWith(undefined)))]) expect(out.toLowerCase()).not.toContain('claims');
  });

  it("gives the page each track's claims × releases, a cell per release with its word and figure, and the flips with their commands", () => {
    const data = releasesPageData(view(trackWith([['held', 'broken']]), trackWith(undefined, 'bun × json-reviver')));
    const [node, bun] = data.tracks;
    expect(bun!.claims).toBeUndefined();
    expect(node!.claims!.releases).toEqual([
      { tag: '25.9.0', engine: 'V8 0' },
      { tag: '26.0.0', engine: 'V8 1' },
    ]);
    expect(node!.claims!.rows).toEqual([
      {
        says: `${SAYS} (0)`,
        row: 'node: arrow vs plain',
        cells: [
          { word: 'held', text: 'held: 3.50× slower [3.15–3.85]; claimed at least 3× slower; 6 units' },
          { word: 'broken', text: 'broken: 2.00× slower [1.80–2.20]; claimed at least 3× slower; 6 units' },
        ],
      },
    ]);
    expect(data.claimFlips).toEqual([{ track: 'node × json-reviver', text: `${SAYS} (0) · node: arrow vs plain: held on 25.9.0, broken on 26.0.0`, commands: ["rtbench bisect node@25.9.0..node@26.0.0 json-reviver --filter '/^parse \\/ arrow$/'"] }]);
    expect(data.legend.some((l) => l.startsWith('Claims × releases'))).toBe(true);
    expect(releasesPageData(view(trackWith(undefined))).claimFlips).toBeUndefined();
  });

  it('is a kind of view the reporter map renders: its JSON under its schema without the kind, and a format without a renderer refuses it', () => {
    const v = view(trackWith([['held', 'broken']]));
    const json = reporterFor('json')!.render(v, drawn);
    expect(JSON.parse(json)).toEqual({ schema: 'rtbench.releases-result', ...v, kind: undefined });
    expect(json.startsWith('{\n "schema": "rtbench.releases-result",\n "threshold": 0.01,')).toBe(true);
    expect(reporterFor('html')!.render(v, drawn)).toContain('<!doctype html>');
    expect(() => reporterFor('csv')!.render(v, drawn)).toThrow('this format cannot show a releases view');
  });
});
