/**
 * The cold-start suite's generated programs are written by each process into a
 * folder of its own: a file someone planted under a shared, fixed name in the
 * temporary directory is never what a run executes.
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatedModulePath, generateModule } from '../src/generate.ts';

describe('generated start-up programs', () => {
  it('are written into a fresh owner-only folder of this process, never read from the old shared name', () => {
    // What an earlier rtbench reused by name: a folder anyone could create first.
    const shared = join(tmpdir(), 'rtbench-cold-start');
    mkdirSync(shared, { recursive: true });
    writeFileSync(join(shared, 'generated-10000-1.mjs'), 'export default "planted";\n');
    const path = generatedModulePath(10_000);
    expect(dirname(path)).not.toBe(shared);
    expect(readFileSync(path, 'utf8')).toBe(generateModule(10_000));
    const dir = statSync(dirname(path));
    expect(dir.mode & 0o777).toBe(0o700);
    expect(dir.uid).toBe(process.getuid!());
    // Asked again in the same process: the same file, not rewritten.
    expect(generatedModulePath(10_000)).toBe(path);
  });
});
