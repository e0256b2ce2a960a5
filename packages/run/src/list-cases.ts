/**
 * The cases of a brought file, listed where they will run: in a process of
 * each selected runtime binary that can load the file (at once), with the
 * environment the measuring processes get, and merged (case-union.ts): a case
 * one runtime lacks is named, not dropped. Never in the CLI's own process: a
 * file may need an API newer than the host's Node, call process.exit, or name
 * its cases after an environment variable the measuring processes do not see.
 */
import type { CaseListing } from '@rtbench/core/protocol';
import { crashCause, endedHow, stderrReason, type JobOutcome } from '@rtbench/process';
import { UnsafeCacheError } from '@rtbench/core/usage-error';
import { capText } from '@rtbench/measurers';
import { bundleSuite, type SuiteLocation } from '@rtbench/suite-loader';
import { UsageError } from '@rtbench/core/usage-error';
import type { ResolvedVariant } from '@rtbench/runtime-registry';
import { caseUnion, type AbsentCases } from './case-union.ts';

/** A listing job loads the file and answers at once; a minute is generous. */
const LIST_TIMEOUT_MS = 60_000;

export interface Listed {
  cases: CaseListing[];
  notes: string[];
  /** The variant whose process listed them first. */
  listedBy: string;
  /** The cases some runtime that loaded the file does not define, and the variants it stands for. */
  absent: AbsentCases;
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

/** What one runtime binary and environment answered: its cases, or why it could not list them. */
type Answer = { variants: ResolvedVariant[]; cases: CaseListing[]; notes: string[] } | { variants: ResolvedVariant[]; problem: string };

async function listOne(location: SuiteLocation, variants: ResolvedVariant[], file: string, signal: AbortSignal | undefined): Promise<Answer> {
  const v = variants[0]!;
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
  if (problem !== undefined) return { variants, problem };
  const answer = outcome.messages.find((m) => m.type === 'cases')!;
  return { variants, cases: answer.cases, notes: answer.notes ?? [] };
}

export async function listInRuntime(location: SuiteLocation, variants: readonly ResolvedVariant[], file: string, signal?: AbortSignal): Promise<Listed> {
  // One listing per runtime binary and environment: a second variant differing only in engine flags defines the same cases.
  const groups = new Map<string, ResolvedVariant[]>();
  for (const v of variants) {
    const key = `${v.target.binary}\u0000${JSON.stringify(v.flags.env)}`;
    groups.set(key, [...(groups.get(key) ?? []), v]);
  }
  const answers = await Promise.all([...groups.values()].map((group) => listOne(location, group, file, signal)));
  const listed = answers.filter((a) => 'cases' in a);
  // A runtime that cannot load the file fails its cells when the run asks it; the others' cases still run.
  if (!listed.length) throw new UsageError(`${file} does not load on any selected runtime: ${answers.map((a) => `${a.variants[0]!.spec.id}: ${'problem' in a ? a.problem : ''}`).join('; ')}`);
  const union = caseUnion(listed.map((a) => ({ variants: a.variants.map((v) => v.spec.id), cases: a.cases })));
  if (union.cases.length === 0) throw new UsageError(`${file} declares no benchmarks (no mitata bench() or tinybench bench.add())`);
  const notes = [...new Set(listed.flatMap((a) => a.notes))];
  return { cases: union.cases, notes: union.line ? [...notes, union.line] : notes, listedBy: listed[0]!.variants[0]!.spec.id, absent: union.absent };
}
