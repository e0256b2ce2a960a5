/**
 * A runtime is one plug-in: a fifth runtime (test/fixtures/fifth-runtime/
 * plugin.ts, node under the name "nodelike", shown as "NodeLike", its engine
 * flags spelled --js-flags=…, its engine one of its own, "likev8") registered once, through RTBENCH_RUNTIME_PLUGINS,
 * runs a suite, a start-up case timed by the host and a CPU profile through
 * the real CLI, and every reporter (in this process, registered the same way:
 * a CLI per format would cost seconds each), with no other edit to rtbench.
 * What it declares it cannot do is said in the one sentence that says so.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { formatNames } from '@rtbench/report';
import { engineNamed, loadRuntimePlugins, unregisterRuntime } from '@rtbench/runtime-registry';
import { reportCommand } from '../src/commands/report.ts';
import { MEASURERS } from '../../measurers/src/index.ts';
import { fixture, repoRoot, runCli, tempFile } from '../../../test/helpers/cli.ts';

// The one registration: the plug-in's file named to the CLI, and a `nodelike` on PATH for it to find.
const bin = mkdtempSync(join(tmpdir(), 'rtbench-nodelike-'));
symlinkSync(process.execPath, join(bin, 'nodelike'));
const PLUGINS = join(repoRoot, 'test/fixtures/fifth-runtime/plugin.ts');
const ENV = { RTBENCH_RUNTIME_PLUGINS: PLUGINS, PATH: `${bin}:${process.env.PATH}` };
afterAll(() => {
  rmSync(bin, { recursive: true, force: true });
  unregisterRuntime('nodelike');
});
const QUICK = ['--rounds', '1', '--time', '20ms', '--warmup', '5ms', '--fixed-warmup', '--quiet'];

describe('a fifth runtime added as one plug-in', () => {
  const saved = tempFile('run.json');
  let run: RunRecord;
  let bench: ReturnType<typeof runCli>;

  beforeAll(async () => {
    await loadRuntimePlugins(PLUGINS);
    bench = runCli(['bench', fixture('tiny'), '--compare', 'nodelike --max-old-space-size=128', 'node', '--filter', 'runtime facts', ...QUICK, '--profile', 'cpu,alloc', '--save', saved], ENV);
    run = parseRun(JSON.parse(readFileSync(saved, 'utf8')), saved);
  });

  it('runs a suite beside node, with its own name, display name and flag spelling', () => {
    expect(bench.status, bench.stderr).toBe(0);
    const variant = run.variants.find((v) => v.runtime === 'nodelike')!;
    expect(variant.id).toBe('nodelike --max-old-space-size=128');
    expect(variant.translatedFlags?.args).toEqual(['--js-flags=--max-old-space-size=128']);
    expect(run.results.filter((r) => r.status === 'ok').map((r) => r.variantId).sort()).toEqual(['node', 'nodelike --max-old-space-size=128']);
    expect(run.digestMismatches).toEqual([]);
    expect(bench.stdout).toContain('A = nodelike --max-old-space-size=128: NodeLike ');
  });

  it('records and names its own engine, as its plug-in declares it', () => {
    const variant = run.variants.find((v) => v.runtime === 'nodelike')!;
    expect(variant.engine).toBe('likev8');
    expect(variant.displayNames).toEqual({ runtime: 'NodeLike', engine: 'LikeV8 engine', engineShort: 'LikeV8' });
    expect(bench.stdout).toMatch(/A = nodelike --max-old-space-size=128: NodeLike [\d.]+, LikeV8 \d/);
  });

  it("judges its instruction counts by the threshold its engine declares (the largest of a comparison's engines)", () => {
    const counts = MEASURERS.recorded('instructions').record.verdict;
    const engines = (ids: string[]) => ids.map((id) => engineNamed(id));
    expect(counts.threshold(engines(['likev8']))).toBe(0.02);
    expect(counts.threshold(engines(['v8', 'likev8']))).toBe(0.02);
    expect(counts.threshold(engines(['v8']))).toBeLessThan(0.02);
  });

  it('takes its CPU profile, and says in the one sentence what it declares it cannot do', () => {
    const dir = saved.replace(/\.json$/, '.profiles');
    expect(readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))).toHaveLength(2);
    expect(bench.stdout + bench.stderr).toContain('NodeLike cannot give an allocation profile: NodeLike is a test runtime and declares it cannot');
  });

  it.each(formatNames())('the %s reporter shows it', async (format) => {
    const out = tempFile(`report.${format}`);
    expect(await reportCommand(saved, { format, output: out } as Parameters<typeof reportCommand>[1])).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(format === 'bmf' || format.startsWith('csv') ? /nodelike/ : /NodeLike/);
  });

  it('times a start-up case from the host, and declares the code cache it cannot keep', () => {
    const out = tempFile('cold.json');
    const r = runCli(['bench', 'cold-start', '--runtime', 'nodelike', '--rounds', '1', '--filter', '/generated .size=10kb. cache=(none|warm).$/', '--quiet', '--save', out], ENV);
    expect(r.status, r.stderr).toBe(0);
    const cold = parseRun(JSON.parse(readFileSync(out, 'utf8')), out);
    const result = (id: string) => cold.results.find((x) => x.caseId === id && x.variantId === 'nodelike')!;
    expect(result('process start / generated [size=10kb, cache=none]').rounds[0]!.samples[0]).toBeGreaterThan(0);
    expect(result('process start / generated [size=10kb, cache=warm]').status).toBe('unsupported');
    expect(JSON.stringify(result('process start / generated [size=10kb, cache=warm]'))).toContain('NodeLike cannot keep a code cache between starts');
  });
});
