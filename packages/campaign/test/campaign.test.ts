/**
 * What bisect, releases and claims share (campaign.ts, campaign-loop.ts): the
 * folder named by a slug of what is measured, the budget, and a stop
 * (stop.ts) turned into a stop of the loop, with the handlers gone once it
 * ends; and a folder named to it checked before anything is asked.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SIGNAL_EXIT } from '@rtbench/run';
import { assertWritableFolder, campaignFolder, CampaignBudget, runCampaign, type CampaignPlanner } from '../src/index.ts';

describe('a campaign', () => {
  it('names its folder by a slug of what it measures under results/<kind>/, unless one is given; a shard keeps its suffix past the slug', () => {
    expect(campaignFolder('/r', 'bisect', ['node@24.0.0..node@26.1.0', 'json-reviver', 'parse 1 kB', 'time'])).toBe('/r/bisect/node@24.0.0..node@26.1.0-json-reviver-parse_1_kB-time');
    expect(campaignFolder('/r', 'releases', ['x'.repeat(200)], undefined, '-shard-1-of-2')).toBe(`/r/releases/${'x'.repeat(120)}-shard-1-of-2`);
    expect(campaignFolder('/r', 'bisect', ['a'], '/elsewhere')).toBe('/elsewhere');
  });

  it('fits work in its budget only while what was spent and the estimate stay within it', () => {
    const budget = new CampaignBudget(60_000);
    expect(budget.fits(59_000)).toBe(true);
    expect(budget.fits(61_000)).toBe(false);
    expect(new CampaignBudget(0).fits(1)).toBe(false);
  });

  it('turns the first SIGINT, SIGTERM or SIGHUP into a stop of the loop, told once with its cause, exits by that signal and leaves no handler behind', async () => {
    const count = (): number[] => (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((s) => process.listenerCount(s));
    const before = count();
    const quiet = { watch: () => () => {}, exit: () => {} };
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-campaign-stop-'));
    // A planner whose first run is asked for as the signal comes: the loop starts nothing, ends stopped.
    const planner = (signal?: NodeJS.Signals): CampaignPlanner<undefined, undefined, never, undefined> => ({
      what: 'toy',
      dir,
      lockFile: 'toy.lock',
      open: async () => ({ saved: 0, facts: undefined }),
      next: async () => {
        if (!signal) return undefined;
        process.emit(signal);
        return { file: 'never.json', about: undefined, estimateMs: 0, plan: () => Promise.reject(new Error('nothing starts after a stop')) };
      },
      told: async () => {},
      end: async () => ({ exit: 0 }),
    });
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      const events: string[] = [];
      const exit = await runCampaign(planner(signal), { budgetMs: 60_000, stop: quiet }, (e) => events.push(e.kind === 'stopping' ? `stopping ${JSON.stringify(e.cause)}` : e.kind));
      // Exit by the signal, as a stopped bench does: 130, 143, 129.
      expect(exit).toBe(SIGNAL_EXIT[signal]);
      expect(events).toEqual(['opened', `stopping ${JSON.stringify({ signal })}`, 'stopped', 'finished']);
      expect(count()).toEqual(before);
    }
    // Ended without a signal: nothing told of a stop, nothing left listening, the lock released.
    const events: string[] = [];
    expect(await runCampaign(planner(), { budgetMs: 60_000, stop: quiet }, (e) => events.push(e.kind))).toBe(0);
    expect(events).toEqual(['opened', 'finished']);
    expect(count()).toEqual(before);
    expect(existsSync(join(dir, 'toy.lock'))).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("a campaign's folder, checked before anything is asked", () => {
  const refusal = (path: string): string => {
    try {
      assertWritableFolder(path, '--dir');
    } catch (error) {
      expect((error as Error).message).not.toContain('\n');
      return (error as Error).message;
    }
    return 'accepted';
  };

  it('refuses a file, /proc, /sys and a name too long in one line, making nothing; takes a folder that can be made', () => {
    const root = mkdtempSync(join(tmpdir(), 'rtbench-campaign-'));
    writeFileSync(join(root, 'file'), 'x');
    expect(refusal(join(root, 'file'))).toBe(`--dir ${join(root, 'file')} is a file, not a folder`);
    expect(refusal(join(root, 'file', 'below'))).toBe(`--dir ${join(root, 'file', 'below')}: ${join(root, 'file')} is a file, not a folder`);
    expect(refusal('/proc/rtbench/matrix')).toMatch(/^--dir \/proc\/rtbench\/matrix: no file can be created in \/proc/);
    expect(refusal('/sys/rtbench')).toMatch(/^--dir \/sys\/rtbench: no file can be created in \/sys/);
    expect(refusal(join(root, 'x'.repeat(300)))).toMatch(/longer than 255 bytes/);
    expect(refusal(join(root, 'new', 'deeper'))).toBe('accepted');
    expect(existsSync(join(root, 'new'))).toBe(false);
  });
});
