/**
 * Per measurement and variant, once per run: what a round starts. Programs
 * are bundled for the variant's runtime; a 'warm' cache is filled by one
 * untimed run, and a runtime that wrote nothing there is reported as
 * unsupported (its cache does not apply) rather than timed as if it did.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { guardDir, removeGuardedDir } from '@rtbench/runtime-kit';
import { bundleProgram } from './bundle.ts';
import { runLoadRound } from './load.ts';
import { fail, type RoundOutcome } from './outcome.ts';
import { timeFirstLine, timeWorkerdFirstResponse, timeWorkerdIsolateStart, type TimingLimits } from './startup.ts';
import { isUnsupported, type HostMeasurement, type LoadMeasurement, type StartupMeasurement, type Unsupported } from './suite.ts';
import { programCommand, type HostVariant } from './variant.ts';

export type Prepared =
  | { kind: 'first-line'; path: string; bytes: number; cacheDir?: string }
  | { kind: 'workerd-serve'; path: string; bytes: number }
  | { kind: 'workerd-isolate'; path: string; bytes: number }
  | { kind: 'load'; serverPath: string; measurement: LoadMeasurement };

/** What preparing a measurement needs: its limits, and the program cache's folder for its bundles. */
export interface PrepareOptions extends TimingLimits {
  programDir: string;
}

export interface RoundBudget extends TimingLimits {
  /** Load rounds: measured load, and load before it. */
  loadMs: number;
  loadWarmupMs: number;
}

const programPaths = new WeakMap<StartupMeasurement, string>();

function programOf(m: StartupMeasurement): string {
  if (typeof m.program === 'string') return m.program;
  let path = programPaths.get(m);
  if (!path) programPaths.set(m, (path = m.program()));
  return path;
}

/** Temporary cache directories of this host, removed by disposePrepared(). */
const cacheDirs: string[] = [];

export function disposePrepared(): void {
  for (const dir of cacheDirs.splice(0)) removeGuardedDir(dir);
}

async function prepareStartup(m: StartupMeasurement, v: HostVariant, limits: PrepareOptions): Promise<Prepared | Unsupported> {
  const label = `${m.name}-${v.runtime}`;
  if (m.start === 'isolate') {
    if (v.runtime !== 'workerd') return { unsupported: 'isolate start is measured through workerd\'s worker loader; this runtime starts a process' };
    if (m.cache !== 'none') return { unsupported: 'workerd keeps no code cache between workers' };
    const built = await bundleProgram(programOf(m), v.bundle, 'worker-module', label, limits.programDir);
    return { kind: 'workerd-isolate', path: built.path, bytes: built.bytes };
  }
  if (v.runtime === 'workerd') {
    if (m.cache !== 'none') return { unsupported: 'workerd keeps no code cache between processes' };
    const built = await bundleProgram(programOf(m), v.bundle, 'workerd-handler', label, limits.programDir);
    return { kind: 'workerd-serve', path: built.path, bytes: built.bytes };
  }
  const built = await bundleProgram(programOf(m), v.bundle, 'print', label, limits.programDir);
  if (m.cache === 'none') return { kind: 'first-line', path: built.path, bytes: built.bytes };
  const cacheDir = mkdtempSync(join(tmpdir(), `rtbench-code-cache-${process.pid}-`));
  cacheDirs.push(cacheDir);
  // The warden removes it if the host dies before the run's cleanup.
  guardDir(cacheDir);
  const primed = await timeFirstLine(programCommand(v, built.path, { cacheDir }), limits);
  if (!primed.ok) return { unsupported: `the untimed run that fills the cache failed: ${primed.message}` };
  if (readdirSync(cacheDir, { recursive: true }).length === 0) return { unsupported: `${v.id} wrote nothing to its cache for this program` };
  return { kind: 'first-line', path: built.path, bytes: built.bytes, cacheDir };
}

export async function prepareMeasurement(m: HostMeasurement, v: HostVariant, limits: PrepareOptions): Promise<Prepared | Unsupported> {
  if (m.kind === 'startup') return prepareStartup(m, v, limits);
  const server = m.server(v.runtime);
  if (isUnsupported(server)) return server;
  const built = await bundleProgram(server, v.bundle, v.runtime === 'workerd' ? 'server-workerd' : 'none', `${m.name}-server-${v.runtime}`, limits.programDir);
  return { kind: 'load', serverPath: built.path, measurement: m };
}

export async function runRound(prepared: Prepared, v: HostVariant, budget: RoundBudget): Promise<RoundOutcome> {
  const limits: TimingLimits = { timeoutMs: budget.timeoutMs, ...(budget.signal ? { signal: budget.signal } : {}) };
  switch (prepared.kind) {
    case 'first-line':
      return timeFirstLine(programCommand(v, prepared.path, prepared.cacheDir ? { cacheDir: prepared.cacheDir } : {}), limits);
    case 'workerd-serve':
      return timeWorkerdFirstResponse(v, prepared.path, limits);
    case 'workerd-isolate':
      return timeWorkerdIsolateStart(v, prepared.path, limits);
    case 'load':
      return runLoadRound(v, {
        serverPath: prepared.serverPath,
        request: prepared.measurement.request,
        connections: prepared.measurement.connections,
        warmupMs: budget.loadWarmupMs,
        durationMs: budget.loadMs,
        ...limits,
      });
  }
}

export { fail };
