/** What a brought file implies when the command line leaves it out: Node core and Deno.bench files give each configuration or benchmark processes of its own, and a comparison of a Node core file has a budget of its own. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { locateBroughtFile } from '@rtbench/suite-loader';
import { broughtSchedule } from '@rtbench/measurers';
import { broughtCompareBudget, NODE_CORE_COMPARE_BUDGET } from '../src/plan/brought-defaults.ts';

// Flags the budget does not touch pass through (a variable: an object literal would be checked against BudgetFlags alone).
const filterOnly: { filter: string; rounds?: number } = { filter: 'x' };
const nodeCore = (): string => locateBroughtFile(join('examples', 'node-core', 'benchmark', 'buffers', 'buffer-read-write.js')).entry;

describe('broughtSchedule', () => {
  it('runs a Node core file and a Deno.bench file lockstep-per-case, and leaves every other file and suite to the default', () => {
    expect(broughtSchedule(nodeCore())).toMatchObject({ measurer: { name: 'lockstep-per-case' }, what: 'a Node core file' });
    expect(broughtSchedule(locateBroughtFile(join('examples', 'deno-text.bench.ts')).entry)).toMatchObject({ measurer: { name: 'lockstep-per-case' }, what: 'a Deno.bench file' });
    expect(broughtSchedule(locateBroughtFile(join('examples', 'mitata-json.mjs')).entry)).toBeUndefined();
    expect(broughtSchedule(locateBroughtFile(join('examples', 'node-bench-json.mjs')).entry)).toBeUndefined();
    expect(broughtSchedule('bench/json-reviver/suite.ts')).toBeUndefined();
  });
});

describe('broughtCompareBudget', () => {
  it("fills a Node core file's comparison budget where the command line leaves it out, and says so", () => {
    const { flags, note } = broughtCompareBudget(nodeCore(), filterOnly);
    expect(flags).toEqual({ filter: 'x', rounds: NODE_CORE_COMPARE_BUDGET.rounds, time: `${NODE_CORE_COMPARE_BUDGET.rounds * NODE_CORE_COMPARE_BUDGET.sampleMsPerSet}ms`, warmup: NODE_CORE_COMPARE_BUDGET.warmup });
    expect(note).toContain(`--rounds ${NODE_CORE_COMPARE_BUDGET.rounds} `);
  });

  it('keeps what the command line gives; --time follows --rounds at the same time per set', () => {
    expect(broughtCompareBudget(nodeCore(), { rounds: '20' }).flags).toEqual({ rounds: '20', time: `${20 * NODE_CORE_COMPARE_BUDGET.sampleMsPerSet}ms`, warmup: NODE_CORE_COMPARE_BUDGET.warmup });
    expect(broughtCompareBudget(nodeCore(), { time: '2s', warmup: '150ms' }).flags).toEqual({ rounds: NODE_CORE_COMPARE_BUDGET.rounds, time: '2s', warmup: '150ms' });
    const given = { rounds: 20, time: '2s', warmup: '150ms' };
    expect(broughtCompareBudget(nodeCore(), given)).toEqual({ flags: given });
  });

  it('leaves every other file and suite as given', () => {
    for (const entry of [locateBroughtFile(join('examples', 'mitata-json.mjs')).entry, locateBroughtFile(join('examples', 'node-bench-json.mjs')).entry, 'bench/json-reviver/suite.ts']) {
      expect(broughtCompareBudget(entry, filterOnly)).toEqual({ flags: filterOnly });
    }
  });

  it('refuses a --rounds that is not a whole number as the plan would', () => {
    expect(() => broughtCompareBudget(nodeCore(), { rounds: 'many' })).toThrow(/--rounds "many"/);
  });
});
