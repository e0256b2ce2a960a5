/**
 * A run saved under a name ending `.json.gz` (saved-runs' save.ts): a
 * quarter of the size of the run as saved uncompressed or less, and reported
 * as the same run, and saved over again as a run. On a run from results/
 * that the docs cite, written as `--save` writes it both ways. The command line runs in the test's own
 * process.
 */
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { assertWritableOutput, writeRunAtomically } from '@rtbench/saved-runs';
import { commandStreams as runCli } from './usage-lines.ts';

/** A json-reviver run saved by the writer of today (one line of JSON): README's and docs' cited run. */
const SAVED = join(import.meta.dirname, '../../../results/20261128-230559Z-json-reviver.json');

describe('a run saved compressed (.json.gz)', () => {
  it('is a quarter of the size of the run saved today or less, and report prints it byte for byte as the same run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-compact-save-'));
    const text = readFileSync(SAVED, 'utf8');
    const run = JSON.parse(text) as RunRecord;
    const [plain, packed] = [join(dir, 'run.json'), join(dir, 'run.json.gz')];
    writeRunAtomically(plain, run);
    writeRunAtomically(packed, run);
    // Uncompressed, the writer gives the checked-in file back: that is the size compared with.
    expect(readFileSync(plain, 'utf8')).toBe(text);
    expect(gunzipSync(readFileSync(packed)).toString('utf8')).toBe(text);
    expect(statSync(packed).size / statSync(plain).size).toBeLessThanOrEqual(0.25);
    // Saving again over it (the same --save twice) is saving over a run, not over something else.
    expect(() => assertWritableOutput(packed)).not.toThrow();
    // The same JSON inside (above) is the same run to the loader; the report shows that end to end.
    const [before, after] = [await runCli(['report', plain]), await runCli(['report', packed])];
    expect(before.status, before.stderr).toBe(0);
    expect(after.stdout.replaceAll(packed, plain)).toBe(before.stdout);
    expect(after.stderr.replaceAll(packed, plain)).toBe(before.stderr);
  });
});
