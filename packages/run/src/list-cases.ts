/**
 * The cases of a brought file, listed where they will run: in a process of
 * the first selected runtime that can load the file, with the environment the
 * measuring processes get. Never in the CLI's own process: a file may need an
 * API newer than the host's Node, call process.exit, or name its cases after
 * an environment variable the measuring processes do not see.
 */
import type { CaseListing } from '@rtbench/core/protocol';
import { crashCause, endedHow, stderrReason, type JobOutcome } from '@rtbench/process';
import { UnsafeCacheError } from '@rtbench/host';
import { capText } from '@rtbench/measurers';
import { bundleSuite, type SuiteLocation } from '@rtbench/suite-loader';
import { UsageError } from '@rtbench/core/usage-error';
import type { ResolvedVariant } from '@rtbench/runtime-registry';

/** A listing job loads the file and answers at once; a minute is generous. */
const LIST_TIMEOUT_MS = 60_000;

export interface Listed {
  cases: CaseListing[];
  notes: string[];
  /** The variant whose process listed them. */
  listedBy: string;
}

/** Why one runtime could not list the file's cases, or undefined when it did. */
function listingProblem(outcome: JobOutcome, runtime: string): string | undefined {
  if (outcome.timedOut) return `no answer within ${LIST_TIMEOUT_MS / 1000} s`;
  if (outcome.protocolErrors.length) return `the process broke rtbench's protocol: ${outcome.protocolErrors.join('; ')}`;
  const error = outcome.messages.find((m) => m.type === 'error');
  if (error) return capText(error.message).replace(/^UnsupportedError: /, '');
  if (!outcome.messages.some((m) => m.type === 'cases')) {
    // What broke, not the runtime's version banner that ends its stderr after an uncaught error.
    const tail = crashCause(outcome.stderr) ?? stderrReason(outcome.stderr);
    return `the ${runtime} process ${endedHow(outcome)} without listing its cases${tail ? ` (${capText(tail, 300)})` : ''}`;
  }
  return undefined;
}

export async function listInRuntime(location: SuiteLocation, variants: readonly ResolvedVariant[], file: string, signal?: AbortSignal): Promise<Listed> {
  const problems: string[] = [];
  const tried = new Set<string>();
  for (const v of variants) {
    // One try per runtime binary and environment: a second variant differing only in engine flags would fail the same way.
    const key = `${v.target.binary}\u0000${JSON.stringify(v.flags.env)}`;
    if (tried.has(key)) continue;
    tried.add(key);
    let bundlePath: string;
    try {
      bundlePath = (await bundleSuite(location.entry, location.name, v.plugin.name, v.plugin.bundle)).path;
    } catch (error) {
      if (error instanceof UnsafeCacheError) throw error;
      throw new UsageError(`${file} cannot be bundled: ${(error as Error).message.split('\n').slice(0, 4).join(' ')}`);
    }
    const outcome = await v.plugin.runJob({ target: v.target, flags: v.flags, bundlePath, job: { protocol: 1, kind: 'list' }, timeoutMs: LIST_TIMEOUT_MS, ...(signal ? { signal } : {}) });
    if (outcome.interrupted) throw new UsageError('interrupted while listing the cases');
    const problem = listingProblem(outcome, v.plugin.name);
    if (problem === undefined) {
      const answer = outcome.messages.find((m) => m.type === 'cases')!;
      if (answer.cases.length === 0) throw new UsageError(`${file} declares no benchmarks (no mitata bench() or tinybench bench.add())`);
      return { cases: answer.cases, notes: answer.notes ?? [], listedBy: v.spec.id };
    }
    problems.push(`${v.spec.id}: ${problem}`);
  }
  throw new UsageError(`${file} does not load on any selected runtime: ${problems.join('; ')}`);
}
