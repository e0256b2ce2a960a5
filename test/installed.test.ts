/**
 * rtbench as another repository installs it: every package packed as it
 * would be published (`pnpm pack`: workspace versions become real ones), the
 * tarballs installed into a scratch project outside this checkout (no
 * workspace around it), and `rtbench` run there from node_modules/.bin on a
 * mitata file and on a native suite that imports the suite API from
 * 'rtbench'. pnpm installs from its store (the checkout's install filled it),
 * so the runtimes are not downloaded again. No assertion is on time.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { repoRoot } from './helpers/cli.ts';

const PNPM = join(repoRoot, 'node_modules', '.bin', 'pnpm');
const PACKAGE_DIRS = ['packages', 'runners'].flatMap((top) => readdirSync(join(repoRoot, top)).map((name) => join(repoRoot, top, name)));

let scratch: string;

function sh(command: string, args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 600_000, env: { ...process.env, NO_COLOR: '1', CI: '1' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const rtbench = (args: string[]) => sh(join(scratch, 'node_modules', '.bin', 'rtbench'), args, scratch);
const QUICK = ['--runtime', 'node', '--rounds', '1', '--time', '20ms', '--warmup', '5ms', '--quiet'];

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'rtbench-installed-'));
  const tarballs = join(scratch, 'tarballs');
  mkdirSync(tarballs);
  const packed: Record<string, string> = {};
  for (const dir of PACKAGE_DIRS) {
    const name = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string }).name;
    const r = sh(PNPM, ['pack', '--pack-destination', tarballs], dir);
    if (r.status !== 0) throw new Error(`pnpm pack in ${dir}: ${r.stderr}`);
    const file = r.stdout.trim().split('\n').pop()!.trim();
    packed[name] = `file:${file}`;
  }
  const { rtbench: cli, ...libraries } = packed;
  writeFileSync(
    join(scratch, 'package.json'),
    JSON.stringify({
      name: 'a-project-using-rtbench',
      private: true,
      type: 'module',
      devDependencies: { rtbench: cli },
      // The published versions of rtbench's own packages are these tarballs, not the registry's.
      pnpm: { overrides: libraries, onlyBuiltDependencies: ['bun', 'esbuild'] },
    }),
  );
  const install = sh(PNPM, ['install', '--prefer-offline', '--config.confirmModulesPurge=false'], scratch);
  if (install.status !== 0) throw new Error(`pnpm install in the scratch project: ${install.stdout}\n${install.stderr}`);
  mkdirSync(join(scratch, 'bench', 'sums'), { recursive: true });
  writeFileSync(
    join(scratch, 'bench', 'sums', 'index.ts'),
    "import { bench, suite } from 'rtbench';\n\nexport default suite('sums', () => {\n  bench('sum to 100', () => {\n    let s = 0;\n    for (let i = 0; i < 100; i++) s += i;\n    return s;\n  });\n});\n",
  );
  writeFileSync(join(scratch, 'parse.bench.mjs'), "import { bench, run } from 'mitata';\n\nbench('JSON.parse', () => JSON.parse('[1,2,3]'));\nawait run();\n");
}, 600_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('rtbench installed from its packed tarballs in a project of its own', () => {
  it('says its version', () => {
    const r = rtbench(['--version']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(JSON.parse(readFileSync(join(repoRoot, 'packages', 'cli', 'package.json'), 'utf8')).version);
  });

  it('runs a mitata file and a native suite of that project, saving runs in its results/', () => {
    const file = rtbench(['run', 'parse.bench.mjs', ...QUICK]);
    expect(file.status, file.stderr).toBe(0);
    const suite = rtbench(['bench', 'sums', ...QUICK]);
    expect(suite.status, suite.stderr).toBe(0);
    const saved = readdirSync(join(scratch, 'results')).filter((f) => f.endsWith('.json'));
    const runs = saved.map((f) => JSON.parse(readFileSync(join(scratch, 'results', f), 'utf8')) as RunRecord);
    expect(runs.map((r) => r.cases.map((c) => c.id)).sort()).toEqual([['JSON.parse'], ['sum to 100']]);
    for (const run of runs) {
      expect(run.results.map((r) => r.status)).toEqual(['ok']);
      // Installed, not a checkout: the version is recorded, and the project's own git state is not taken for rtbench's.
      expect(run.rtbenchVersion).toMatch(/^\d+\.\d+\.\d+/);
      expect(run.git).toBeUndefined();
    }
  });
});
