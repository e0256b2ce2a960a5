/**
 * The cold-start suite's generated programs are written where the run hands
 * them (the program cache's owner-only folder of generated modules), named
 * by their content: the same path in every run, so the bundle that names the
 * path is the same too, and a file altered there is written again before use.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generatedModules } from '@rtbench/host-timed';
import { generatedModulePath, generateModule } from '../src/generate.ts';

let root: string | undefined;
afterEach(() => root && rmSync(root, { recursive: true, force: true }));

describe('generated start-up programs', () => {
  it('are written once per content into an owner-only folder of the program cache, and rewritten when altered', () => {
    root = mkdtempSync(join(tmpdir(), 'rtbench-cold-start-test-'));
    const programs = join(root, 'programs');
    const path = generatedModulePath(generatedModules(programs), 10_000);
    expect(dirname(path)).toBe(join(programs, 'generated'));
    expect(readFileSync(path, 'utf8')).toBe(generateModule(10_000));
    const dir = statSync(dirname(path));
    expect(dir.mode & 0o777).toBe(0o700);
    expect(dir.uid).toBe(process.getuid!());
    // The next run's store of the same cache: the same file.
    writeFileSync(path, 'export default "altered";\n');
    expect(generatedModulePath(generatedModules(programs), 10_000)).toBe(path);
    expect(readFileSync(path, 'utf8')).toBe(generateModule(10_000));
    expect(readdirSync(dirname(path))).toHaveLength(1);
  });
});
