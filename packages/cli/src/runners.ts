/** Every runtime rtbench can drive. A runner is found by the spec's prefix. */
import type { Runner } from '@rtbench/runner-kit';
import { nodeRunner } from '@rtbench/runner-node';

export const RUNNERS: readonly Runner[] = [nodeRunner];

/** What `pnpm bench <suite>` runs when --runtime is not given. */
export const DEFAULT_RUNTIMES = ['node'];

export function runnerFor(spec: string): Runner | undefined {
  return RUNNERS.find((r) => r.accepts(spec));
}
