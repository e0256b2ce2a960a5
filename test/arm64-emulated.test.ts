/**
 * linux-arm64, under emulation on this x64 machine: each runtime's arm64
 * package from npm (what its plug-in declares for linux-arm64, installed by
 * the runtime store into the checkout's cache under an entry named for the
 * platform), run through qemu-user with Debian's arm64 cross libraries,
 * beside x64 node in one table. The run fails on any digest that differs,
 * and the test reads every case's digests itself: equal across the runtimes
 * and the two platforms (that the x64 runtimes agree with each other is
 * every four-runtime test's). Behaviour only: emulated samples are 5 to
 * 1000 times slower, so no time from them means anything (docs/platforms.md).
 */
import { chmodSync, mkdtempSync, openSync, readFileSync, readSync, closeSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRun } from '@rtbench/core/schema';
import { lockstepOf } from '../packages/measurer-records/src/index.ts';
import { NpmRuntimeStore } from '@rtbench/host/installs';
import { runtimePlugins } from '@rtbench/runtime-registry';
import { fixture, runCliAsync, tempFile } from './helpers/cli.ts';
import { machineCache, pruneUnused, touchEntry } from './helpers/machine-cache.ts';
import { ARM64_LIBRARIES, program } from './helpers/system-programs.ts';

/** ELF's e_machine for AArch64. */
const EM_AARCH64 = 183;

function elfMachine(file: string): number {
  const header = Buffer.alloc(20);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, header, 0, 20, 0);
  } finally {
    closeSync(fd);
  }
  return header.readUInt16LE(18);
}

describe('linux-arm64 under emulation', () => {
  it("runs the tiny suite on every runtime's arm64 build, with the same digests as on x64", async () => {
    const qemu = await program('qemu-aarch64');
    for (const lib of ['arm64-libc', 'arm64-libstdc++', 'arm64-libatomic'] as const) await program(lib);
    const store = machineCache('runtimes');
    const arm64 = new NpmRuntimeStore({ dir: store, install: true, platform: 'linux-arm64', log: (line) => process.stderr.write(`${line}\n`) });
    // Each plug-in's newest pin (node@26; the one pin of the others), installed in parallel as a run does.
    const pins = runtimePlugins().flatMap((plugin) => (plugin.npmRuntimes.length ? [{ plugin, rt: plugin.npmRuntimes.at(-1)! }] : []));
    const entries = pins.map(({ rt }) => arm64.cacheEntry(rt)!);
    pruneUnused(store, () => true, entries.map((e) => basename(e)));
    const found = await Promise.all(pins.map(({ rt }) => arm64.get(rt)));
    for (const entry of entries) touchEntry(entry);
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-arm64-'));
    const emulated = pins.map(({ plugin }, i) => {
      expect(elfMachine(found[i]!.binary), found[i]!.binary).toBe(EM_AARCH64);
      // A variant by path: the script execs qemu, so the PID rtbench holds is the emulated runtime's.
      const launcher = join(dir, plugin.name);
      writeFileSync(launcher, `#!/bin/sh\nexec ${qemu} -L ${ARM64_LIBRARIES} '${found[i]!.binary}' "$@"\n`);
      chmodSync(launcher, 0o755);
      return `${plugin.name}=${launcher}`;
    });
    const saved = tempFile('arm64.json');
    // x64 node the one native variant: the digest the arm64 builds must match; native runs of the others would show
    // nothing of arm64's.
    const variants = ['node', ...emulated];
    const r = await runCliAsync(['bench', fixture('tiny'), '--runtime', variants.join(','), '--filter', 'n=200', '--rounds', '1', '--time', '5ms', '--warmup', '1ms', '--fixed-warmup', '--quiet', '--save', saved]);
    expect(r.status, r.stderr).toBe(0);
    const run = parseRun(JSON.parse(readFileSync(saved, 'utf8')), saved);
    // One sum: each emulated process's start-up is most of its CPU, and what emulation changes (the binary, the
    // emulator the host tells apart, the clocks it holds) is the process's, not the case's; that a process serves
    // several cases in turn is test/lockstep.test.ts's.
    expect(run.cases.map((c) => c.id)).toEqual(['math / sum [n=200]']);
    for (const c of run.cases) {
      const results = run.results.filter((x) => x.caseId === c.id);
      expect(results.map((x) => x.variantId).sort()).toEqual(run.variants.map((v) => v.id).sort());
      expect(run.variants).toHaveLength(variants.length);
      const digests = new Set(results.map((x) => x.rounds[0]?.digest?.hash));
      expect([...digests], c.id).toHaveLength(1);
      expect([...digests][0]).toMatch(/^[0-9a-f]{16}$/);
      // The host tells the emulated processes from the native ones, and holds only their clocks (corroborate.ts).
      for (const x of results) {
        const emulatedArm = x.variantId.includes('=');
        expect(lockstepOf(x.rounds[0]!)?.emulator, x.variantId).toEqual(emulatedArm ? expect.stringMatching(/^qemu-aarch64/) : undefined);
      }
    }
    // And the table says which variants' times are the emulator's (the run's own table, as `report` prints it from the saved run).
    for (const { plugin } of pins) expect(r.stdout + r.stderr).toContain(`=${join(dir, plugin.name)} ran under qemu-aarch64`);
  });
});
