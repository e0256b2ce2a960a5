/**
 * What a native profile costs against a CPU profile of the same case (issue
 * 28's target: at most 2× the wall time), and where the native one's time
 * goes: pairs of profileCase and profileNative in turn on one runtime, each
 * 300 ms of warmup and 1 s of sampling, as `--profile cpu` and `--profile
 * native` take them.
 *
 * Run (under the measurement lock):
 *   flock /tmp/rtbench-measure.lock npx tsx scripts/measure/profiles/native-cost.ts [runtime=node@26] [pairs=3]
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { guardDir, removeGuardedDir } from '../../../packages/process/src/index.ts';
import { findPerf } from '../../../packages/host/src/tools.ts';
import { profileCase, profileNative, type ProfileArm } from '../../../packages/profile/src/index.ts';
import { bundleSuite } from '@rtbench/suite-loader';
import { pluginForSpec } from '@rtbench/runtime-registry';
import { loadText, machineSpeedText, repoRoot } from '../../lib.ts';

const CASE = 'parse / identity reviver (arrow) [size=10kb]';
const spec = process.argv[2] ?? 'node@26';
const pairs = Number(process.argv[3] ?? 3);
const plugin = pluginForSpec(spec);
if (!plugin) throw new Error(`no runtime for ${spec}`);

const perf = findPerf();
const bundlePath = (await bundleSuite(join(repoRoot, 'bench/json-reviver/index.ts'), 'json-reviver', plugin.name, plugin.bundle)).path;
const arm: ProfileArm = { plugin, target: await plugin.resolve(spec), flags: plugin.translateFlags([]), bundlePath };
const out = mkdtempSync(join(tmpdir(), 'rtbench-native-cost-'));
guardDir(out);
const s = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

console.log(`${CASE} on ${spec}: ${pairs} pairs, 300 ms warmup + 1 s sampling each; ${new Date().toISOString()}, ${machineSpeedText()}`);
const ratios: number[] = [];
try {
  for (let i = 0; i < pairs; i++) {
    let t = performance.now();
    const cpu = await profileCase({ arm, caseId: CASE, outPath: join(out, `cpu-${i}.cpuprofile`) });
    const cpuMs = performance.now() - t;
    t = performance.now();
    const native = await profileNative({ arm, caseId: CASE, perf, outPath: join(out, `native-${i}.native.cpuprofile`) });
    const nativeMs = performance.now() - t;
    if (cpu.status !== 'ok' || native.status !== 'ok') throw new Error(`cpu ${cpu.status}, native ${native.status}: ${'reason' in native ? native.reason : 'reason' in cpu ? cpu.reason : ''}`);
    ratios.push(nativeMs / cpuMs);
    const { recordMs, scriptMs, foldMs } = native.timings;
    console.log(
      `  pair ${i + 1}: cpu ${s(cpuMs)}  native ${s(nativeMs)} (perf record + runtime ${s(recordMs)}, perf script ${s(scriptMs)}, fold ${s(foldMs)}; ${native.resolution.samples} samples)  ${(nativeMs / cpuMs).toFixed(2)}×`,
    );
  }
  console.log(`native / cpu: ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}× (target ≤ 2×); load ${loadText()}`);
} finally {
  removeGuardedDir(out);
}
