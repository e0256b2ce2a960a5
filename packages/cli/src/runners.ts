/** Every runtime rtbench can drive. A runner is found by the spec's prefix. */
import type { Runner } from '@rtbench/runtime-kit';
import { bunRunner } from '@rtbench/runtime-bun';
import { denoRunner } from '@rtbench/runtime-deno';
import { nodeRunner } from '@rtbench/runtime-node';
import { workerdRunner } from '@rtbench/runtime-workerd';

export const RUNNERS: readonly Runner[] = [nodeRunner, denoRunner, bunRunner, workerdRunner];

/**
 * What `pnpm bench <suite>` runs when --runtime is not given: all four, each
 * from its npm install; `node` is the newest Node.js release rtbench
 * installs (node@26).
 */
export const DEFAULT_RUNTIMES = ['node', 'deno', 'bun', 'workerd'];

export function runnerFor(spec: string): Runner | undefined {
  return RUNNERS.find((r) => r.accepts(spec));
}
