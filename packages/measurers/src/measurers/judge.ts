/**
 * A process's outcome as one arm's share of a replicate: the round record
 * when it gave one clean answer, or why not. Shared by the measurers that run
 * the in-runtime loop (fresh processes and lockstep).
 */
import type { JobOutcome } from '@rtbench/process';
import { endedHow, judgeOutcome, leftBehindWarning } from '@rtbench/process';
import type { RoundRecord } from '@rtbench/core/schema';
import { classifyProcess } from '@rtbench/stats';
import type { Arm, ArmResult, LateFailure } from '../measurer.ts';
import { mapStack, unrename } from '../stack-map.ts';
import { capStack, capText } from '../case-text.ts';

export function armResultOf(arm: Arm, outcome: JobOutcome, timeoutMs: number, round: number, order: number, extra: Partial<RoundRecord> = {}): ArmResult {
  // Everything the case said is cut to a bound first (case-text.ts): what follows is linear in bounded text.
  const leftBehind = leftBehindWarning(outcome, arm.plugin.name);
  const warnings = [...outcome.messages.flatMap((m) => (m.type === 'warning' ? [capText(m.message)] : [])), ...(leftBehind ? [leftBehind] : [])];
  const verdict = judgeOutcome(outcome, arm.plugin.name, timeoutMs);
  if (verdict.kind === 'unsupported') return { armId: arm.id, warnings, outcomes: [{ kind: 'unsupported', reason: capText(verdict.reason) }] };
  if (verdict.kind === 'failure') {
    const { failure: kind, phase } = verdict;
    const caseStack = verdict.stack === undefined ? undefined : capStack(verdict.stack);
    // Frames in the bundle mapped back to the files the user wrote; the message says where, with a line number.
    const mapped = caseStack && arm.bundlePath ? mapStack(caseStack, arm.bundlePath, arm.plugin.frames.bundleModule) : undefined;
    const stack = mapped?.stack ?? caseStack;
    const message = capText(verdict.message);
    const said = mapped ? unrename(message, mapped.renames) : message;
    const located = mapped?.where ? `${said} (at ${mapped.where})` : said;
    return {
      armId: arm.id,
      warnings,
      outcomes: [{ kind: 'failure', failure: { kind, message: located, ...(phase ? { phase } : {}), ...(stack ? { stack } : {}), ...(kind === 'interrupted' ? {} : { stderr: outcome.stderr }) } }],
    };
  }
  const m = verdict.message;
  const record: RoundRecord = {
    round,
    order,
    samples: m.samples,
    ...(m.sampleStartMs ? { sampleStartMs: m.sampleStartMs } : {}),
    iterationsPerSample: m.iterationsPerSample,
    warmupIterations: m.warmupIterations,
    ...(m.warmup ? { warmup: m.warmup } : {}),
    // Every process timed in the runtime is classified: from its watched warmup and its samples (a rewarm: its samples alone).
    steadyState: classifyProcess(m.warmup, m.samples),
    async: m.async,
    ...(m.untimedWork ? { untimedWork: true as const } : {}),
    clock: m.clock,
    ...(m.floorNs !== undefined ? { floorNs: m.floorNs } : {}),
    ...(m.span ? { span: m.span } : {}),
    digest: m.digest,
    ...(m.gc ? { gc: m.gc } : {}),
    ...(m.metrics ? { metrics: m.metrics } : {}),
    wallMs: outcome.wallMs,
    ...extra,
  };
  return { armId: arm.id, warnings, outcomes: [{ kind: 'round', record }] };
}

/** ms of timed work in a round of the in-runtime loop: every sample's batch. */
export function timedMsOf(result: ArmResult): number {
  let ns = 0;
  for (const o of result.outcomes) if (o.kind === 'round') for (const x of o.record.samples) ns += x * o.record.iterationsPerSample;
  return ns / 1e6;
}

/**
 * A warm process's end, judged after its last case's answer: a clean exit (or
 * one rtbench asked for) is nothing; a crash fails the last case it served.
 * `what` names the process in the message ("the node process under callgrind").
 */
export function crashAfterLastAnswer(outcome: JobOutcome, what: string, served: number, last: Omit<LateFailure, 'failure'>): LateFailure | undefined {
  const clean = (outcome.exitCode === 0 && outcome.exitSignal === null) || outcome.stoppedAfterAnswer === true || outcome.interrupted;
  if (clean) return undefined;
  const how = endedHow(outcome);
  return { ...last, failure: { kind: 'crash', message: `${what} ${how} after its last case's result (it had served ${served} cases)`, stderr: outcome.stderr } };
}
