import { describe, expect, it } from 'vitest';
import { historyRuns } from '../../../test/history-synthetic.ts';
import { hostLines } from '../src/cells/run.ts';
import { unpairedComparisonView } from '../src/views/comparison.ts';
import { historyView } from '../src/views/history.ts';

const cases = [{ id: 'parse', ns: 1_000 }];

/** Two runs of one case on node@24, the second made on linux-arm64. */
function twoPlatforms() {
  const [x64, arm64] = historyRuns([{ factor: 1 }, { factor: 1 }], { cases, rounds: 6, seed: 5 });
  return [x64!, { ...arm64!, host: { ...arm64!.host, arch: 'arm64' } }];
}

describe('runs from different platforms', () => {
  it('a comparison of saved runs says so, naming both', () => {
    const [a, b] = twoPlatforms();
    const view = unpairedComparisonView({ run: a!, file: 'x64.json' }, { run: b!, file: 'arm64.json' });
    expect(view.notes).toContain('different platforms: x64.json ran on linux-x64, arm64.json on linux-arm64; each runtime is another build there');
    const same = unpairedComparisonView({ run: a!, file: 'one.json' }, { run: a!, file: 'two.json' });
    expect(same.notes.some((n) => n.startsWith('different platforms'))).toBe(false);
  });

  it('a history warns, and the host lines name each platform only when they differ', () => {
    const runs = twoPlatforms();
    const view = historyView(runs.map((run, i) => ({ run, file: `run-${i}.json` })));
    expect(view.notes).toContainEqual({ level: 'warning', text: 'the runs come from 2 platforms (linux-x64, linux-arm64): each runtime is another build on each' });
    const lines = hostLines({ runs: runs.map((run) => ({ run })), run: runs[0]! });
    expect(lines.every((l) => /, linux-(x64|arm64), load /.test(l))).toBe(true);
    expect(hostLines({ run: runs[0]! })[0]).not.toContain('linux-x64');
  });
});
