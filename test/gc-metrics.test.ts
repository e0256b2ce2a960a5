/**
 * Engine metrics end to end, on each runtime: a case that allocates shows
 * more minor collections and more bytes per operation than one that does
 * not, the run saves them per round, and `--metrics gc` prints them. No
 * assertion is on time.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { fixture, runCli, tempFile, type CliResult } from './helpers/cli.ts';

const RUNTIMES = ['node', 'deno', 'bun', 'workerd'] as const;

describe('GC metrics on every runtime', () => {
  let cli: CliResult;
  let run: RunRecord;
  beforeAll(() => {
    const out = tempFile('gc.json');
    // A smoke run (three samples). The allocating case allocates more than a nursery in one call (fixture), so
    // its collections do not depend on how many calls a loaded machine lets a sample make: with a quarter of a
    // nursery a call, bun took none twice on clean clones at load 6-7.
    cli = runCli(['bench', fixture('gc'), '--runtime', RUNTIMES.join(','), '--time', '100ms', '--rounds', '1', '--warmup', '30ms', '--fixed-warmup', '--save', out, '--metrics', 'gc', '--quiet']);
    run = parseRun(JSON.parse(readFileSync(out, 'utf8')), out);
  }, 300_000);
  const metricsOf = (caseId: string, runtime: string) => {
    const result = run.results.find((r) => r.caseId === caseId && r.variantId === runtime);
    return result?.rounds[0]?.metrics;
  };

  it('runs and prints the GC view', () => {
    expect(cli.status, cli.stderr).toBe(0);
    expect(cli.stdout).toMatch(/variant +minor\/1k +major\/1k +incr\/1k +GC time +bytes\/op +young \(end\) +old \(end\)/);
    expect(cli.stdout).toContain('minor/major/incr per 1k: minor and major collections');
    // Four runtimes' GC view within 100 columns (no colour: not a terminal).
    const lines = cli.stdout.split('\n');
    const view = lines.slice(lines.findIndex((l) => /variant +minor\/1k/.test(l)));
    expect(view.length).toBeGreaterThan(4);
    for (const line of view) expect([...line].length, line).toBeLessThanOrEqual(100);
  });

  it.each(RUNTIMES)('%s: the allocating case has more minor GCs and allocates more', (runtime) => {
    const allocating = metricsOf('allocates', runtime);
    const idle = metricsOf('allocates nothing', runtime);
    expect(allocating?.gc, JSON.stringify(allocating)).toBeDefined();
    expect(idle?.gc, JSON.stringify(idle)).toBeDefined();
    expect(allocating!.gc!.minor.count).toBeGreaterThan(idle!.gc!.minor.count);
    expect(allocating!.gc!.minor.count).toBeGreaterThan(0);
    expect(allocating!.allocation?.bytes ?? 0).toBeGreaterThan(0);
    expect(allocating!.source).not.toBe('probe');
  });
});
