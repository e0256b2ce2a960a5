/**
 * A fourth planner added as one file (fixtures/toy-planner.ts) gets from the
 * campaign loop and the CLI's one writer, with nothing else added: its
 * progress said in the general words, its budget (exit 75, and the same
 * command continues), its resume (a run its folder holds is read back, not
 * measured again), its stop (exit 130) and its --html page. Its runs are
 * scripted (no runtime process); the page is bundled by esbuild.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BUDGET_EXIT, runCampaign } from '@rtbench/campaign';
import { campaignListener } from '../src/emit/campaign.ts';
import { toyPlanner } from './fixtures/toy-planner.ts';

let dir: string;
let said: string[];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rtbench-toy-'));
  said = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((text) => {
    said.push(String(text));
    return true;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const quiet = { watch: () => () => {}, exit: () => {} };
// No colour: the lines as a log reads them.
const plain = (): string => said.join('').replace(/\x1b\[[0-9;]*m/g, '');

describe('a fourth planner, added as one file', () => {
  it('stops at its budget, then resumes from its folder and writes its --html page', async () => {
    const listener = { html: true as const, page: 'toy.html' };
    // Each run is estimated at 60 s, the budget 30 s: the first does not fit, so nothing is measured.
    const first = toyPlanner(dir, { runs: 3, estimateMs: 60_000 });
    expect(await runCampaign(first, { budgetMs: 30_000, stop: quiet }, campaignListener({}, {}, listener))).toBe(BUDGET_EXIT);
    expect(plain()).toContain('budget of 0:30 reached; run the same command again to continue (or raise --budget)');
    expect(first.heard).toEqual([]);

    // With room for all: both runs measured, each said with its sets.
    const second = toyPlanner(dir, { runs: 2, estimateMs: 10 });
    expect(await runCampaign(second, { budgetMs: 60_000, stop: quiet }, campaignListener({}, {}, listener))).toBe(0);
    expect(second.heard).toEqual([{ file: '01-toy.json', measured: true }, { file: '02-toy.json', measured: true }]);
    expect(plain()).toMatch(/toy: budget 1:00\n/);
    expect(plain()).toContain('  measuring 01-toy.json: 4 sets');
    expect(plain()).toMatch(/ {4}set 1 of 4 \[/);
    expect(plain()).toContain(`html report ${join(dir, 'toy.html')}`);
    expect(readFileSync(join(dir, 'toy.html'), 'utf8')).toMatch(/^<!doctype html>/);
    expect(existsSync(join(dir, 'toy.lock'))).toBe(false);

    // Asked again with one run more: the two saved are read back, only the third is measured.
    said = [];
    const third = toyPlanner(dir, { runs: 3, estimateMs: 10 });
    expect(await runCampaign(third, { budgetMs: 60_000, stop: quiet }, campaignListener({}, {}, {}))).toBe(0);
    expect(third.heard).toEqual([{ file: '01-toy.json', measured: false }, { file: '02-toy.json', measured: false }, { file: '03-toy.json', measured: true }]);
    expect(plain()).not.toContain('measuring 01-toy.json');
    expect(plain()).toContain('measuring 03-toy.json');
  });

  it('stops on a signal: the run in progress saved as it was, exit 130, and the same command continues', async () => {
    const stopped = toyPlanner(dir, { runs: 2, estimateMs: 10, beforeRun: (n) => void (n === 2 && process.emit('SIGINT')) });
    expect(await runCampaign(stopped, { budgetMs: 60_000, stop: quiet }, campaignListener({}, {}, {}))).toBe(130);
    expect(plain()).toContain('interrupted: stopping the current run; the runs measured are saved, run the same command to continue');
    expect(stopped.heard.map((t) => t.file)).toEqual(['01-toy.json']);
    const again = toyPlanner(dir, { runs: 2, estimateMs: 10 });
    expect(await runCampaign(again, { budgetMs: 60_000, stop: quiet }, campaignListener({}, {}, {}))).toBe(0);
    expect(again.heard).toEqual([{ file: '01-toy.json', measured: false }, { file: '02-toy.json', measured: true }]);
  });
});
