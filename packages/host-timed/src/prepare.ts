/**
 * Per measurement and variant, once per run: what a round starts. Programs
 * are bundled for the variant's runtime; a 'warm' cache is filled by one
 * untimed run, and a runtime that wrote nothing there is reported as
 * unsupported (its cache does not apply) rather than timed as if it did.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cannotMessage, isUnavailable } from '@rtbench/host/platform';
import { guardDir, removeGuardedDir } from '@rtbench/process';
import { bundleProgram, startupWrapper, variantNodeEnv } from './bundle.ts';
import { generatedModules } from './generated.ts';
import { runLoadRound } from './load.ts';
import { servedBy } from './served.ts';
import type { RoundOutcome } from './outcome.ts';
import { timeFirstLine, timeFirstResponse, timeIsolateStart, type TimingLimits } from './startup.ts';
import { isUnsupported, type HostMeasurement, type LoadMeasurement, type StartupMeasurement, type Unsupported } from './suite.ts';
import type { RunnableVariant } from './variant.ts';
import { programCommand } from './variant.ts';

export type Prepared =
  | { kind: 'first-line'; path: string; bytes: number; cacheDir?: string }
  | { kind: 'first-response'; path: string; bytes: number }
  | { kind: 'isolate'; path: string; bytes: number }
  | { kind: 'load'; serverPath: string; measurement: LoadMeasurement };

/** What preparing a measurement needs: its limits, and the program cache's folder for its bundles. */
export interface PrepareOptions extends TimingLimits {
  programDir: string;
}

export interface RoundBudget extends TimingLimits {
  /** Load rounds: the steady load, and the warm-up their bound allows for (load.ts). */
  loadMs: number;
  loadWarmupMs: number;
  /** Load rounds: no window of load starts past this, ms from the first. */
  loadBoundMs: number;
}

const programPaths = new WeakMap<StartupMeasurement, string>();

function programOf(m: StartupMeasurement, programDir: string): string {
  if (typeof m.program === 'string') return m.program;
  let path = programPaths.get(m);
  if (!path) programPaths.set(m, (path = m.program(generatedModules(programDir))));
  return path;
}

/** Temporary cache directories of this host, removed by disposePrepared(). */
const cacheDirs: string[] = [];

export function disposePrepared(): void {
  for (const dir of cacheDirs.splice(0)) removeGuardedDir(dir);
}

async function prepareStartup(m: StartupMeasurement, v: RunnableVariant, limits: PrepareOptions): Promise<Prepared | Unsupported> {
  const label = `${m.name}-${v.plugin.name}`;
  const programs = v.plugin.programs;
  if (m.start === 'isolate') {
    if (isUnavailable(programs.isolateStart)) return { unsupported: cannotMessage(v.plugin, 'isolateStart', programs.isolateStart) };
    if (m.cache !== 'none') return { unsupported: `${v.plugin.displayName} keeps no code cache between isolates` };
    const built = await bundleProgram(programOf(m, limits.programDir), v.plugin, 'worker-module', label, limits.programDir, variantNodeEnv(v));
    return { kind: 'isolate', path: built.path, bytes: built.bytes };
  }
  if (m.cache !== 'none' && isUnavailable(programs.codeCache)) return { unsupported: cannotMessage(v.plugin, 'codeCache', programs.codeCache) };
  const built = await bundleProgram(programOf(m, limits.programDir), v.plugin, startupWrapper(v.plugin), label, limits.programDir, variantNodeEnv(v));
  if (programs.kind === 'server') return { kind: 'first-response', path: built.path, bytes: built.bytes };
  if (m.cache === 'none') return { kind: 'first-line', path: built.path, bytes: built.bytes };
  const cacheDir = mkdtempSync(join(tmpdir(), `rtbench-code-cache-${process.pid}-`));
  cacheDirs.push(cacheDir);
  // The warden removes it if the host dies before the run's cleanup.
  guardDir(cacheDir);
  const primed = await timeFirstLine(v.plugin.name, programCommand(v, built.path, { cacheDir }), limits);
  if (!primed.ok) return { unsupported: `the untimed run that fills the cache failed: ${primed.message}` };
  if (readdirSync(cacheDir, { recursive: true }).length === 0) return { unsupported: `${v.id} wrote nothing to its cache for this program` };
  return { kind: 'first-line', path: built.path, bytes: built.bytes, cacheDir };
}

export async function prepareMeasurement(m: HostMeasurement, v: RunnableVariant, limits: PrepareOptions): Promise<Prepared | Unsupported> {
  if (m.kind === 'startup') return prepareStartup(m, v, limits);
  const served = servedBy(m.server, v.plugin);
  if (isUnsupported(served)) return served;
  const built = await bundleProgram(served.file, v.plugin, served.wrapper, `${m.name}-server-${v.plugin.name}`, limits.programDir, variantNodeEnv(v));
  return { kind: 'load', serverPath: built.path, measurement: m };
}

export async function runRound(prepared: Prepared, v: RunnableVariant, budget: RoundBudget): Promise<RoundOutcome> {
  const limits: TimingLimits = { timeoutMs: budget.timeoutMs, ...(budget.signal ? { signal: budget.signal } : {}) };
  switch (prepared.kind) {
    case 'first-line':
      return timeFirstLine(v.plugin.name, programCommand(v, prepared.path, prepared.cacheDir ? { cacheDir: prepared.cacheDir } : {}), limits);
    case 'first-response':
      return timeFirstResponse(v, prepared.path, limits);
    case 'isolate':
      return timeIsolateStart(v, prepared.path, limits);
    case 'load':
      return runLoadRound(v, {
        serverPath: prepared.serverPath,
        request: prepared.measurement.request,
        load: prepared.measurement.load,
        warmupMs: budget.loadWarmupMs,
        durationMs: budget.loadMs,
        boundMs: budget.loadBoundMs,
        ...limits,
      });
  }
}


