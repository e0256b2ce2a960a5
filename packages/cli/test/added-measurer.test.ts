/**
 * A measurer with its own option and its own tool, added as one file
 * (run's test fixture scripted-measurer.ts) and one entry in a registry: the
 * registry offers its option, checks who takes it, and its prepare() finds
 * its tool; the plan and the run carry what it prepared unopened; the run it
 * saves carries its words, its verdict's parameters and a block of its own in
 * every round, validated on load by the registry that has it, so `report` and
 * `compare` re-report it as itself although rtbench's own registry has no
 * such measurer. A saved run that needs a measurer rtbench lacks is refused
 * in one line, never read as another measurer's.
 */
import { chmodSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { executeRun } from '../../run/src/index.ts';
import { MeasurerRefused, MeasurerRegistry, MEASURERS } from '../../measurers/src/index.ts';
import { loadSavedRun, writeRunAtomically } from '../../saved-runs/src/index.ts';
import { repoRoot } from '../../../test/helpers/cli.ts';
import { ratioOptions } from '../src/verdict-flags.ts';
import { engineNamed } from '@rtbench/runtime-registry';
import { SCALE_OPTION, scriptedMeasurer, scriptedVariant as variant } from '../../run/test/fixtures/scripted-measurer.ts';
import { reportCommand } from '../src/commands/report.ts';
import { compareFilesCommand } from '../src/commands/compare.ts';
import { UsageError } from '../src/errors.ts';


const SCRIPTED = scriptedMeasurer();
/** rtbench's measurers and one more entry: the fixture's. */
const registry = new MeasurerRegistry([...MEASURERS.every(), SCRIPTED]);

let dir: string;
let scripterBefore: string | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rtbench-added-measurer-'));
  scripterBefore = process.env.RTBENCH_SCRIPTER;
  // The measurer's own tool: prints an arm's time per operation (base 1000 ns, fast 500 ns).
  const scripter = join(dir, 'scripter');
  writeFileSync(scripter, '#!/bin/sh\nif [ "$1" = fast ]; then echo 500; else echo 1000; fi\n');
  chmodSync(scripter, 0o755);
  process.env.RTBENCH_SCRIPTER = scripter;
});
afterEach(() => {
  if (scripterBefore === undefined) delete process.env.RTBENCH_SCRIPTER;
  else process.env.RTBENCH_SCRIPTER = scripterBefore;
});

/** A run by the scripted measurer, prepared through the registry, with its option given. */
async function scriptedRun(): Promise<RunRecord> {
  const prepared = registry.prepare(SCRIPTED, { [SCALE_OPTION]: '3' }, { mode: 'compare', cacheDir: dir });
  return executeRun(
    {
      suite: { name: 'scripted', entry: '/nowhere/suite.ts', cases: [{ id: 'one', name: 'one', params: {} }] } as never,
      variants: [variant('base'), variant('fast')],
      options: { timeMs: 30, warmupMs: 0, timeoutMs: 1000, seed: 1, mode: 'compare', roundPlan: { order: 'balanced', rounds: 4 }, measurer: SCRIPTED, prepared, command: [] },
      environment: { binaryGit: () => undefined, programDir: '/nowhere' },
    },
    { save: () => {} },
  );
}

describe('a measurer with its own option and tool, added as one file and one registry entry', () => {
  it('offers its option, refuses it for another measurer, and refuses to run without its tool', () => {
    expect(registry.options().map((o) => o.name)).toContain(SCALE_OPTION);
    expect(MEASURERS.options().map((o) => o.name)).not.toContain(SCALE_OPTION);
    expect(() => registry.prepare(MEASURERS.chosenBy('schedule')[0]!, { [SCALE_OPTION]: '3' }, { mode: 'bench', cacheDir: dir })).toThrow(new MeasurerRefused(`--${SCALE_OPTION} goes with --schedule scripted`));
    process.env.RTBENCH_SCRIPTER = join(dir, 'missing');
    expect(() => registry.prepare(SCRIPTED, {}, { mode: 'bench', cacheDir: dir })).toThrow(/^--schedule scripted needs a scripter: RTBENCH_SCRIPTER=.*missing is not an executable file$/);
  });

  it('measures with its tool and option, and saves its kind, words and verdict parameters', async () => {
    const run = await scriptedRun();
    expect(run.status).toBe('complete');
    // The tool's 1000 and 500 ns, times --script-scale 3.
    expect(run.results.map((r) => r.rounds[0]!.samples[0])).toEqual([3000, 1500]);
    expect(run.options).toMatchObject({ measurer: 'scripted', measurerFields: { scale: 3 }, verdict: { threshold: 0.07, confidence: 0.9 } });
    // Its field is its own: the registry that has it validates it on load; a field that is not its shape is refused.
    expect(registry.records.measurerBlock(run.options, {}).measurerFields).toEqual({ scale: 3 });
    expect(() => registry.records.measurerBlock({ ...run.options, measurerFields: { scale: 'three' } }, {})).toThrow(/^its measurer's fields do not match what scripted records: .* at measurerFields\.scale$/);
    expect(run.options.measuredBy?.paired).toBe('paired: scripted ratios');
  });

  it('saves a block of its own in every round, which its schema validates on load', async () => {
    const run = await scriptedRun();
    // What its tool printed for each arm, before --script-scale.
    expect(run.results.map((r) => r.rounds.map((x) => x.script))).toEqual([Array(4).fill({ printed: '1000' }), Array(4).fill({ printed: '500' })]);
    expect(registry.records.roundBlocks(run)).toEqual(run.results);
    const bad = { ...run, results: run.results.map((r) => ({ ...r, rounds: r.rounds.map((x) => ({ ...x, script: { printed: 1000 } })) })) };
    expect(() => registry.records.roundBlocks(bad)).toThrow(/^a round's script does not match what scripted records: .* at results\.0\.rounds\.0\.script\.printed$/);
    // A block its measurer does not declare is dropped, as the schema drops a field it does not name; rtbench's own registry, which lacks the measurer, leaves its blocks unread.
    const stray = { ...run, results: run.results.map((r) => ({ ...r, rounds: r.rounds.map((x) => ({ ...x, stray: 1 })) })) };
    expect(registry.records.roundBlocks(stray)).toEqual(run.results);
    expect(MEASURERS.records.roundBlocks(bad)).toBe(bad.results);
  });

  it('is re-reported as itself by report and compare, with no code of it in rtbench', async () => {
    const file = join(dir, 'scripted.json');
    writeRunAtomically(file, await scriptedRun());
    expect(loadSavedRun(file).run.results[1]!.rounds[0]!.script).toEqual({ printed: '500' });
    const reported = join(dir, 'report.json');
    await reportCommand(file, { format: 'json', output: reported, quiet: true });
    const view = JSON.parse(readFileSync(reported, 'utf8')) as { threshold: number; confidence: number };
    expect({ threshold: view.threshold, confidence: view.confidence }).toEqual({ threshold: 0.07, confidence: 0.9 });
    const markdown = join(dir, 'report.md');
    await compareFilesCommand([file], { format: 'markdown', output: markdown, quiet: true });
    expect(readFileSync(markdown, 'utf8')).toContain("each of the 4 rounds reads every arm's samples from a script, scaled ×3");
  });

  it('refuses in one line a saved run that needs a measurer rtbench lacks (no words of its own), never reading it as another', async () => {
    const run = await scriptedRun();
    delete run.options.measuredBy;
    const file = join(dir, 'older.json');
    writeRunAtomically(file, run);
    await expect(reportCommand(file, { format: 'json', output: join(dir, 'x.json'), quiet: true })).rejects.toThrow(UsageError);
    const kinds = [...new Set(MEASURERS.every().map((m) => m.record.kind))].join(', ');
    expect(kinds).toContain('lockstep');
    await expect(reportCommand(file, { quiet: true })).rejects.toThrow(`older.json was measured by "scripted", a measurer this rtbench does not have (it has ${kinds})`);
  });
});

describe('runs saved before runs carried their verdict parameters (results/*.json)', () => {
  // The runs results/ keeps, older and newer: those saved before carry no verdict parameters.
  const saved = readdirSync(join(repoRoot, 'results'))
    .filter((f) => f.endsWith('.json'))
    .map((name) => ({ file: join(repoRoot, 'results', name), record: JSON.parse(readFileSync(join(repoRoot, 'results', name), 'utf8')) as RunRecord }));
  const older = saved.filter((s) => s.record.options.verdict === undefined);

  it('keep the parameters a newer run saved', () => {
    const newer = saved.filter((s) => s.record.options.verdict !== undefined);
    expect(newer.length).toBeGreaterThan(0);
    for (const { file, record } of newer) {
      const { run } = loadSavedRun(file);
      expect(run.options.verdict).toEqual(record.options.verdict);
      // Every round as saved, its measurer's blocks (lockstep's, requests', load's) among them.
      expect(run.results.map((r) => r.rounds)).toEqual(record.results.map((r) => r.rounds));
    }
  });

  it('load as they were saved, and take their verdict parameters from the measurer they name', () => {
    expect(older.length).toBeGreaterThan(0);
    for (const { file, record } of older) {
      const { run } = loadSavedRun(file);
      expect(run.results.map((r) => r.rounds)).toEqual(record.results.map((r) => r.rounds));
      // Nothing added to the record (its JSON output is as before); the parameters come from its measurer's defaults.
      expect(run.options.verdict).toBeUndefined();
      const { verdict } = MEASURERS.recorded(run.options.measurer).record;
      const engines = run.variants.filter((v) => !v.unavailable).map((v) => engineNamed(v.engine));
      expect(ratioOptions({}, [run])).toEqual({ threshold: verdict.threshold(engines), confidence: verdict.confidence });
    }
  });
});
