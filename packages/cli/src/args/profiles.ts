/** --profile's value: which kinds of profile the run's profile phase takes (@rtbench/run profiles.ts). */
import { refusedOn } from '@rtbench/host/platform';
import { findPerf, PERF_SUPPORT } from '@rtbench/host/tools';
import { hostPlatform } from '@rtbench/process';
import { PROFILE_KINDS, type ProfileKind } from '@rtbench/run';
import { UsageError } from '../errors.ts';

/**
 * `--profile` alone is CPU (as before allocation profiles); `--profile alloc`,
 * `--profile cpu,alloc`, `--profile native`. Native profiles need perf (Linux):
 * without it, one line (exit 2) before anything runs.
 */
export function parseProfileKinds(value: string | true, env: NodeJS.ProcessEnv = process.env, platform = hostPlatform()): ProfileKind[] {
  if (value === true) return ['cpu'];
  const kinds: ProfileKind[] = [];
  for (const part of value.split(',').map((p) => p.trim().toLowerCase())) {
    const kind = part === 'cpu' ? 'cpu' : ['alloc', 'allocations', 'heap'].includes(part) ? 'alloc' : ['native', 'perf'].includes(part) ? 'native' : undefined;
    if (!kind) {
      throw new UsageError(`--profile takes ${PROFILE_KINDS.join(', ')} or several comma-separated (got ${JSON.stringify(part)}); --profile alone is cpu`);
    }
    if (!kinds.includes(kind)) kinds.push(kind);
  }
  if (kinds.includes('native')) {
    const refused = refusedOn('--profile native', PERF_SUPPORT, platform);
    if (refused) throw new UsageError(refused);
    try {
      findPerf(env);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  return PROFILE_KINDS.filter((k) => kinds.includes(k));
}
