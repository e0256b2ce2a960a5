/**
 * The profiles section (--profile) as the terminal and markdown reporters
 * print it after a run: each kind's heading, a table under its title, note
 * and summary line, a case without a profile in one line.
 */
import { describe, expect, it } from 'vitest';
import type { ProfileSection } from '@rtbench/core/profile-view';
import { reporterFor } from '../src/reporters/index.ts';

const section: ProfileSection = {
  blocks: [
    { kind: 'heading', what: 'CPU profiles', dir: 'results/x.profiles', opens: 'open a .cpuprofile in Chrome DevTools or speedscope' },
    {
      kind: 'table',
      title: 'parse · node@26',
      note: 'markers',
      summary: '1000 ms in 40 samples: benchmark 90% · gc 10%',
      columns: [{ head: 'self', right: true }, { head: 'function' }, { head: 'where' }],
      rows: [
        ['90%', 'a|b', 'bench/x/index.ts:3'],
        ['10%', 'gc', ''],
      ],
    },
    { kind: 'missing', text: 'parse · bun@1: no profile (unavailable: no inspector)' },
  ],
};

describe('the profiles section', () => {
  it('prints padded columns for a terminal', () => {
    expect(reporterFor('terminal')!.sections!.profiles(section)).toBe(
      [
        'CPU profiles: results/x.profiles (open a .cpuprofile in Chrome DevTools or speedscope)',
        '',
        'parse · node@26',
        'markers',
        '1000 ms in 40 samples: benchmark 90% · gc 10%',
        'self  function  where',
        ' 90%  a|b       bench/x/index.ts:3',
        ' 10%  gc',
        '',
        'parse · bun@1: no profile (unavailable: no inspector)',
        '',
      ].join('\n'),
    );
  });

  it('prints markdown tables, their pipes escaped', () => {
    expect(reporterFor('markdown')!.sections!.profiles(section)).toBe(
      [
        '## CPU profiles (results/x.profiles)',
        '',
        '#### parse · node@26',
        '_markers_',
        '',
        '1000 ms in 40 samples: benchmark 90% · gc 10%',
        '',
        '| self | function | where |',
        '| ---: | --- | --- |',
        '| 90% | a\\|b | bench/x/index.ts:3 |',
        '| 10% | gc |  |',
        '',
        'parse · bun@1: no profile (unavailable: no inspector)',
        '',
      ].join('\n'),
    );
  });

  it('is printed only by the formats a person reads', () => {
    for (const format of ['json', 'csv', 'csv-stats', 'bmf', 'html', 'findings']) expect(reporterFor(format)!.sections, format).toBeUndefined();
  });
});
