/**
 * -o / --output: the output of any format written to a file, atomically, the
 * same bytes stdout would carry; a bad place refused before anything runs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliArgv, fixture, repoRoot, runCli, runCliAsync, tempFile } from '../helpers/cli.ts';
import { syntheticRun, writeRun } from '../compare-synthetic.ts';

// Small enough for stdout to be read whole through a pipe (a real run's CSV is megabytes).
const RUN = writeRun(tempFile('small.json'), syntheticRun({ mode: 'bench', cases: [{ id: 'a', ns: 1000 }, { id: 'b', ns: 5000 }], arms: [{ id: 'node', factor: 1 }, { id: 'bun', factor: 0.8 }], rounds: 6 }));

describe('-o, --output', () => {
  it('writes what stdout would carry, for every format, and nothing to stdout', async () => {
    const formats = ['terminal', 'markdown', 'csv', 'csv-stats', 'json', 'bmf', 'html'];
    const files = formats.map((format) => tempFile(`report.${format}`));
    // Every format's two CLIs side by side.
    const runs = await Promise.all(formats.map((format, i) => Promise.all([runCliAsync(['report', RUN, '--format', format, '-o', files[i]!]), runCliAsync(['report', RUN, '--format', format])])));
    for (const [i, format] of formats.entries()) {
      const file = files[i]!;
      const [viaFile, viaStdout] = runs[i]!;
      expect(viaFile.status, viaFile.stderr).toBe(0);
      expect(viaFile.stdout).toBe('');
      if (format === 'html') expect(readFileSync(file, 'utf8')).toMatch(/^<!doctype html>/i);
      else expect(readFileSync(file, 'utf8'), format).toBe(viaStdout.stdout);
      // Atomic: no temporary file left beside it.
      expect(readdirSync(dirname(file)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    }
  });

  it('a missing directory is one line and exit 2, before a run starts', () => {
    const out = tempFile('run.json');
    const r = runCli(['bench', fixture('tiny'), '--runtime', 'node', '--quiet', '--save', out, '--output', join(dirname(out), 'missing', 'table.txt')]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: --output .*: the directory .* does not exist$/)]);
    expect(existsSync(out)).toBe(false);
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
