/**
 * A reader that goes away (`| head -1`) closes the pipe under stdout or
 * stderr: the command finishes quietly with its usual exit code, and a run
 * still measures and saves everything. No assertion is on time.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseRun } from '@rtbench/core/schema';
import { fixture, spawnCli, tempFile } from '../helpers/cli.ts';

const exitOf = (child: ReturnType<typeof spawnCli>) => new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));

describe('a closed pipe', () => {
  it('`report --format csv | head -1`: the first line arrives, exit 0, no stack trace', async () => {
    const child = spawnCli(['report', 'results/20261122-153355Z-json-reviver.json', '--format', 'csv']);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const first = await new Promise<string>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(d.toString().split('\n')[0]!)));
    child.stdout.destroy();
    expect(await exitOf(child)).toBe(0);
    expect(first).toMatch(/^run,case,variant,round/);
    expect(stderr).not.toMatch(/EPIPE|\n\s+at /);
  });

  it('both pipes closed as a run starts: it still measures every case, saves the run and exits 0', async () => {
    const out = tempFile('run.json');
    const child = spawnCli(['bench', fixture('tiny'), '--runtime', 'node', '--rounds', '2', '--time', '20ms', '--warmup', '5ms', '--fixed-warmup', '--save', out, '--format', 'csv']);
    child.stdout.destroy();
    child.stderr.destroy();
    expect(await exitOf(child)).toBe(0);
    const run = parseRun(JSON.parse(readFileSync(out, 'utf8')), out);
    expect(run.status).toBe('complete');
    expect(run.results.every((r) => r.rounds.length === 2)).toBe(true);
  });
});
