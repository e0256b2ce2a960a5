/**
 * -o / --output through the real command: the output written to a file,
 * atomically, the same bytes its stdout would carry; a write that fails
 * leaves the old file whole. Every format, and a missing directory refused
 * before anything runs: packages/cli/test/output-formats.test.ts, the command
 * line in the test's own process.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliArgv, repoRoot, runCliAsync, tempFile } from '../helpers/cli.ts';
import { syntheticRun, writeRun } from '../compare-synthetic.ts';

// Small enough for stdout to be read whole through a pipe (a real run's CSV is megabytes).
const RUN = writeRun(tempFile('small.json'), syntheticRun({ mode: 'bench', cases: [{ id: 'a', ns: 1000 }, { id: 'b', ns: 5000 }], arms: [{ id: 'node', factor: 1 }, { id: 'bun', factor: 0.8 }], rounds: 6 }));

describe('-o, --output', () => {
  it('writes what stdout would carry, and nothing to stdout', async () => {
    const file = tempFile('report.terminal');
    const [viaFile, viaStdout] = await Promise.all([runCliAsync(['report', RUN, '-o', file]), runCliAsync(['report', RUN])]);
    expect(viaFile.status, viaFile.stderr).toBe(0);
    expect(viaFile.stdout).toBe('');
    expect(readFileSync(file, 'utf8')).toBe(viaStdout.stdout);
    // Atomic: no temporary file left beside it.
    expect(readdirSync(dirname(file)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('a write that fails (the file size limit, as a full disk would) leaves the old file whole: one line, exit 2, no temporary file', () => {
    const file = tempFile('x.html');
    writeFileSync(file, 'the page from last week\n');
    // `ulimit -f 64`: no file of this process may pass 64 KB (EFBIG, as ENOSPC on a full disk); the page is larger.
    const r = spawnSync('bash', ['-c', 'ulimit -f 64 && exec "$0" "$@"', process.execPath, ...cliArgv(['report', RUN, '--format', 'html', '-o', file])], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([`error: could not write ${file} (larger than this process may write, EFBIG); x.html is as it was`]);
    expect(readFileSync(file, 'utf8')).toBe('the page from last week\n');
    expect(readdirSync(dirname(file))).toEqual(['x.html']);
  });
});
