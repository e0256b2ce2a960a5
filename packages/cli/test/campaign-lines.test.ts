/**
 * A campaign's events in words (src/emit/campaign-lines.ts): what a claims
 * run says of first sets too few for an interval and of a suite not checked, the general words any
 * planner's events get, and the level a bisect's steps are read at, said as
 * it opens.
 */
import { describe, expect, it } from 'vitest';
import { MIN_UNITS } from '@rtbench/stats';
import { fewSets } from '@rtbench/claims';
import { BISECT_WORDS, CLAIMS_WORDS, eventLines, fewSetsLine } from '../src/emit/campaign-lines.ts';
import { campaignSay } from '../src/emit/info.ts';

describe('what a claims run says of first sets too few for an interval', () => {
  it('notes that sets are added up to an interval when --max-rounds allows one', () => {
    for (const rounds of [1, 2]) {
      const said = fewSetsLine(fewSets({ rounds, maxRounds: 16 })!);
      expect(said.tone).toBe('note');
      expect(said.text).toContain(`--rounds ${rounds}: no interval can be decided from ${rounds} set`);
      expect(said.text).toContain(`sets added while a check on it is undecided: ${MIN_UNITS} at least, up to --max-rounds 16`);
    }
  });

  it('warns in one line of a suite whose checks were not made, and goes on', () => {
    const step = { kind: 'not-checked' as const, suite: 'next-page', checks: 3, reason: 'node: the Workers side was not built:\nwrangler failed' };
    expect(eventLines({ kind: 'step', step, elapsedMs: 0 }, CLAIMS_WORDS)).toEqual([
      { text: 'next-page: 3 checks not made, the other runs go on: node: the Workers side was not built:\\nwrangler failed', tone: 'warning' },
    ]);
  });

  it('warns that every claim stays undecided when --max-rounds is below what an interval needs', () => {
    expect(fewSetsLine(fewSets({ rounds: 1, maxRounds: 2 })!)).toEqual({ tone: 'warning', text: `--max-rounds 2: no interval can be decided from 2 sets (it needs ${MIN_UNITS} independent process pairs); every claim will stay undecided` });
  });
});

describe("any planner's events, in the general words", () => {
  it('say the folder it continues, each run and set, the budget it reached and what it measured', () => {
    const lines = (event: Parameters<typeof eventLines>[0]): string[] => eventLines(event).map((l) => l.text);
    expect(lines({ kind: 'opened', what: 'toy', dir: '/r/toy', saved: 2, budgetMs: 90_000, planOnly: false, facts: undefined })).toEqual(['toy: budget 1:30', 'folder /r/toy (continuing: 2 runs saved)']);
    expect(lines({ kind: 'run-started', file: '03.json', about: undefined, sets: 6, estimateMs: 61_000, elapsedMs: 0 })).toEqual(['  measuring 03.json: 6 sets, ~1:01']);
    expect(lines({ kind: 'set-started', about: undefined, set: 7, added: true, elapsedMs: 5_000 })).toEqual(['    set 7 (added: a check is undecided) [0:05]']);
    expect(lines({ kind: 'budget-reached', budgetMs: 90_000, runs: 3 })).toEqual(['budget of 1:30 reached; run the same command again to continue (or raise --budget)']);
    expect(lines({ kind: 'finished', ending: 'done', dir: '/r/toy', files: [], runs: 1, saved: 2, elapsedMs: 12_000, exit: 0 })).toEqual(['1 run measured in /r/toy in 0:12 this time']);
  });
});

describe('a bisect as it opens', () => {
  it('says once the level its steps print their intervals at, which the steps then do not repeat', () => {
    const facts = { runtime: 'node', first: '24.0.0', last: '26.0.0', releases: 40, suite: 'json-reviver', caseId: 'c', timing: 'lockstep', threshold: 0.05, confidence: 0.99, minRounds: 10, maxRounds: 160, installs: 14, clean: false };
    const [opened] = BISECT_WORDS.opened!({ facts, dir: '/r/b', saved: 0, budgetMs: 900_000 } as never);
    expect(opened!.text).toBe('bisect node@24.0.0..node@26.0.0: 40 releases, json-reviver / c, wall time (lockstep), threshold 5%, 99% intervals, steps of 10–160 paired rounds, budget 15:00');
  });
});

describe("a campaign's lines on stderr", () => {
  const said = (columns: number | undefined, line: string, aside?: string): string[] => {
    const out: string[] = [];
    campaignSay({}, { columns, write: (text: string) => out.push(text) > 0 } as never)(line, 'note', aside);
    return out.join('').split('\n').slice(0, -1);
  };
  const long = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');

  it('fit a terminal: a long line wraps on its words within its width, every word kept in order', () => {
    const lines = said(80, long, ' (an aside)');
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    expect(lines.join(' ').replace(/\s+/g, ' ').trim()).toBe(`${long} (an aside)`);
  });

  it('stay whole in a pipe or a file, and as they are when they fit', () => {
    expect(said(undefined, long, ' (an aside)')).toEqual([`${long} (an aside)`]);
    expect(said(80, 'short line', ' aside')).toEqual(['short line aside']);
  });

  it('fit a line of exactly the width whole, wrap one character more, and add nothing a line did not say', () => {
    const [a, b] = ['a'.repeat(30), 'b'.repeat(29)];
    expect(said(60, `${a} ${b}`)).toEqual([`${a} ${b}`]);
    expect(said(60, `${a} ${b}b`)).toEqual([a, `  ${b}b`]);
    expect(said(60, a, ` ${b}`)).toEqual([`${a} ${b}`]);
    // Wrapped without an aside: the line's own words, nothing after them.
    expect(said(80, long).map((l) => l.trim()).join(' ')).toBe(long);
  });

  it('with --quiet, say only why a campaign stopped short, and a line without a tone as it is', () => {
    const out: string[] = [];
    const say = campaignSay({ quiet: true }, { columns: 80, write: (text: string) => out.push(text) > 0 } as never);
    say('a heading', 'heading');
    say('a note', 'note');
    say('a warning', 'warning');
    say('budget reached', 'ending');
    expect(out).toEqual(['budget reached\n']);
    const loud: string[] = [];
    campaignSay({}, { columns: 80, write: (text: string) => loud.push(text) > 0 } as never)('plain words', undefined);
    expect(loud).toEqual(['plain words\n']);
  });
});
