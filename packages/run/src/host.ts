/** The host's environment, recorded with every run. */
import os from 'node:os';
import type { HostInfo } from '@rtbench/core/schema';
import { containment, memoryBound } from '@rtbench/process';

/**
 * Environment variables that change a benchmark's result. Only these are
 * recorded: the full environment may hold secrets and is never saved.
 */
const ENV_ALLOWLIST = [/^NODE_ENV$/, /^NODE_OPTIONS$/, /^UV_THREADPOOL_SIZE$/, /^BUN_JSC_/, /^DENO_V8_FLAGS$/, /^TZ$/, /^LANG$/, /^CI$/];

export function hostInfo(): HostInfo {
  const cpus = os.cpus();
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && ENV_ALLOWLIST.some((re) => re.test(key))) env[key] = value;
  }
  return {
    os: os.type(),
    release: os.release(),
    arch: os.arch(),
    cpuModel: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memoryBytes: os.totalmem(),
    loadavg: os.loadavg(),
    hostNode: process.version,
    env,
    containment: containment().detail,
    memoryBound: memoryBound(),
  };
}
