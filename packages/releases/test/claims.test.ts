/**
 * Claims on a matrix's releases, from made-up claims runs: matched to the
 * tracks by runtime, release and suite (a build of your own, another suite or
 * a release outside the range is not), refused in one line when an argument
 * matches nothing, kept in the state (a run given again replaces its
 * outcomes; a shard keeps its own tracks'; a merge joins them), and drawn per
 * track as claims × the releases checked, the newer run's word where two
 * checked the same, with the claims that flipped and their bisects.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyseMatrix, keepClaims, loadMatrix, matchClaims, MatrixRefused, mergeMatrices, openMatrix, saveMatrix, syncTracks, type MatrixIdentity } from '../src/index.ts';
import { claimsRun, given, outcome, releaseOf, variant } from './fake-claims.ts';
import type { ReleaseTrack } from '@rtbench/verdicts';
import { matrixRowText } from '@rtbench/report';

const IDENTITY: MatrixIdentity = { filter: '', threshold: 0.01, timePerSetMs: 100, warmupMs: 150, sets: 12, setsPerProcess: 2, windowSize: 6 };

function track(runtime: string, suite: string, releases: string[]): ReleaseTrack {
  return { key: `${runtime} × ${suite}`, runtime, extra: [], suite, range: `${runtime}@${releases[0]}..${runtime}@${releases.at(-1)}`, listed: releases, releases };
}

const NODE = track('node', 'fake', ['1', '2', '3', '4']);
const TRACKS = [NODE, track('bun', 'fake', ['1', '2']), track('node', 'other', ['1', '2', '3', '4'])];
const same = (s: string): string => s;

/** `claims fake --across node@2,node@4`, made up: one run per release. */
function acrossRun(tag: string, startedAt: string, words: { arrow: 'held' | 'broken'; flagged: 'held' | 'broken' }) {
  const v = `node@${tag}`;
  return claimsRun(
    `run-${tag}-${startedAt}`,
    startedAt,
    [variant(v, 'node', tag), variant(`${v} #2`, 'node', tag), variant(`${v} --jitless`, 'node', tag), variant('node@1', 'node', '1'), variant('deno', 'deno', '5')],
    [
      outcome('arrow beats plain', ['arrow', v], ['plain', v], words.arrow),
      outcome('newer beats 1', ['arrow', v], ['arrow', 'node@1'], 'held'),
      outcome('deno against node', ['arrow', 'deno'], ['arrow', v], 'undecided'),
      outcome('no faster than itself', ['arrow', v], ['arrow', `${v} #2`], 'broken'),
      outcome('jitless is slower', ['arrow', `${v} --jitless`], ['arrow', v], words.flagged),
    ],
  );
}

const ON_2 = acrossRun('2', '2026-01-01T10:00:00Z', { arrow: 'held', flagged: 'held' });
const ON_4 = acrossRun('4', '2026-01-01T11:00:00Z', { arrow: 'broken', flagged: 'broken' });
/** An older run on 4 that said otherwise: the newer run's word is shown. */
const ON_4_BEFORE = acrossRun('4', '2026-01-01T09:00:00Z', { arrow: 'held', flagged: 'held' });
/** Nothing of these is a release of the tracks: a build by path, a release outside the ranges, another suite. */
const BUILD = claimsRun('build', '2026-01-01T12:00:00Z', [variant('node=/src/node', 'node', '4', 'path'), variant('node@1', 'node', '1')], [outcome('build beats 1', ['arrow', 'node=/src/node'], ['arrow', 'node@1'], 'held')]);
const ON_9 = claimsRun('nine', '2026-01-01T12:00:00Z', [variant('node@9', 'node', '9')], [outcome('arrow beats plain', ['arrow', 'node@9'], ['plain', 'node@9'], 'held')]);
const OTHER_SUITE = claimsRun('elsewhere', '2026-01-01T12:00:00Z', [variant('node@2', 'node', '2')], [outcome('x', ['a', 'node@2'], ['b', 'node@2'], 'held', 'unmeasured')], 'unmeasured');

describe('claims on a release matrix', () => {
  it("matches each outcome to the release of the track it ran on, with the release's sides written as the runtime", () => {
    const found = matchClaims(TRACKS, [given('across', ON_2, ON_4)], releaseOf, same);
    expect(new Set(found.map((c) => c.track))).toEqual(new Set(['node × fake']));
    const on2 = found.filter((c) => c.release === '2');
    expect(on2.map((c) => [c.outcome.says, c.sides.subject, c.sides.other])).toEqual([
      ['arrow beats plain', 'node', 'node'],
      ['newer beats 1', 'node', 'node@1'],
      // Another runtime's subject: the claim is on node's release through its other side.
      ['deno against node', 'deno', 'node'],
      ['no faster than itself', 'node', 'node #2'],
      ['jitless is slower', 'node --jitless', 'node'],
    ]);
    expect(on2[0]!.run).toEqual({ id: ON_2.id, file: 'across/01-fake.json', startedAt: ON_2.startedAt });
    expect(found.filter((c) => c.release === '4')).toHaveLength(5);
  });

  it('refuses, in one line, an argument none of whose runs checked a claim on a release of a track; a folder with one that did is taken', () => {
    const wrong = (): unknown => matchClaims(TRACKS, [given('across', ON_2), given('results/wrong', BUILD, ON_9, OTHER_SUITE)], releaseOf, same);
    expect(wrong).toThrow(MatrixRefused);
    expect(wrong).toThrow(/^--claims results\/wrong: no claim in it was checked on a release of this matrix's tracks \(it checked fake on node 1; fake on node 9; unmeasured on node 2; the tracks: node × fake 1–4; bun × fake 1–2; node × other 1–4\)$/);
    const kept = matchClaims(TRACKS, [given('mixed', ON_9, ON_2, BUILD)], releaseOf, same);
    expect(kept.every((c) => c.run.id === ON_2.id)).toBe(true);
    expect(kept).toHaveLength(5);
  });

  it('draws claims × the releases checked, the newer run winning, and the claims that flipped with their bisects', () => {
    const claims = matchClaims(TRACKS, [given('a', ON_4_BEFORE, ON_2), given('b', ON_4)], releaseOf, same);
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-releases-claims-'));
    const state = openMatrix(dir, IDENTITY, 'test machine');
    const { tracks } = syncTracks(state, TRACKS);
    keepClaims(state, tracks, claims);
    const view = analyseMatrix(IDENTITY, tracks, () => claimsRun('', '', [], []), dir, state.claims);
    expect(view.tracks.map((t) => Boolean(t.claims))).toEqual([true, false, false]);
    const grid = view.tracks[0]!.claims!;
    expect(grid.columns.map((c) => c.label)).toEqual(['2', '4']);
    const words = grid.rows.map((r) => [r.says, matrixRowText(r.sides), ...r.cells.map((o) => o?.word ?? '—')]);
    expect(words).toEqual([
      ['arrow beats plain', 'node: arrow vs plain', 'held', 'broken'],
      ['newer beats 1', 'node vs node@1', 'held', 'held'],
      ['deno against node', 'deno vs node', 'undecided', 'undecided'],
      ['no faster than itself', 'node vs node #2', 'broken', 'broken'],
      ['jitless is slower', 'node --jitless vs node', 'held', 'broken'],
    ]);
    expect(grid.flips.map((f) => [f.says, f.from, f.to, f.bisect])).toEqual([
      ['arrow beats plain', { column: '2', word: 'held' }, { column: '4', word: 'broken' }, ["rtbench bisect node@2..node@4 fake --filter '/^arrow$/'", "rtbench bisect node@2..node@4 fake --filter '/^plain$/'"]],
      ['jitless is slower', { column: '2', word: 'held' }, { column: '4', word: 'broken' }, ["rtbench bisect 'node@2..node@4 --jitless' fake --filter '/^arrow$/'"]],
    ]);
    // A release no longer in the track (latest~N moved on) drops out of the grid; with none left, the track shows no claims.
    const moved = analyseMatrix(IDENTITY, [{ ...tracks[0]!, releases: ['3', '4'] }], () => claimsRun('', '', [], []), dir, state.claims);
    expect(moved.tracks[0]!.claims!.columns.map((c) => c.label)).toEqual(['4']);
    expect(analyseMatrix(IDENTITY, [{ ...tracks[0]!, releases: ['1', '3'] }], () => claimsRun('', '', [], []), dir, state.claims).tracks[0]!.claims).toBeUndefined();
  });

  it("keeps a shard's own tracks' claims in the state, replaces a run given again, and a merge joins the shards' claims", () => {
    const claims = matchClaims(TRACKS, [given('a', ON_2, ON_4)], releaseOf, same);
    const dirs = [1, 2].map((index) => {
      const dir = mkdtempSync(join(tmpdir(), `rtbench-releases-claims-shard-${index}-`));
      const state = openMatrix(dir, IDENTITY, 'test machine', { index, count: 2 });
      // Shard 1 holds node × fake and node × other, shard 2 bun × fake (whole tracks, round-robin).
      state.asked = TRACKS.map(({ key, range, suite }) => ({ key, range, suite }));
      const { tracks: mine } = syncTracks(state, TRACKS.filter((_, k) => k % 2 === index - 1));
      keepClaims(state, mine, claims);
      keepClaims(state, mine, claims);
      saveMatrix(dir, state);
      return dir;
    });
    expect(loadMatrix(dirs[0]!).claims).toHaveLength(10);
    expect(loadMatrix(dirs[1]!).claims).toEqual([]);
    const merged = mergeMatrices(dirs, mkdtempSync(join(tmpdir(), 'rtbench-releases-claims-merged-')));
    expect(merged.claims?.map((c) => `${c.track} ${c.release} ${c.outcome.says}`)).toEqual(claims.map((c) => `${c.track} ${c.release} ${c.outcome.says}`));
  });
});
