/**
 * The run record as the loop fills it: one result per case × variant, and
 * what is computed from the raw samples once rounds stop (statistics, digest
 * checks, the final status). These change the record in place, and what
 * they compute comes from the record alone (the finish time aside), so a
 * saved run can be finished again from its samples.
 */
import type { CaseResult, Failure, HostMemory, MemorySummary, RunRecord } from '@rtbench/core/schema';
import type { EngineMetrics } from '@rtbench/core/engine-metrics';
import { statsSchema } from '@rtbench/core/schema';
import { median, nearFloor, summarizeArm } from '@rtbench/stats';
import { memoryGrowth, workAnswers, type ResidentSeries } from '@rtbench/verdicts';
import { digest, DIGEST_SIGNIFICANT_DIGITS, UNDEFINED_SUMMARY } from '@rtbench/core/digest';
import { headlineSamples } from '@rtbench/core/cpu-per-request';
import type { MaskedAnswer, RoundRecord } from '@rtbench/core/schema';
import { answerName, answersDifference, standingRound, strictAnswerText, strictDifference, unlikeWithinText, type StrictAnswers } from '@rtbench/core/same-work';
import { createHash } from 'node:crypto';
import { lockstepOf, pairable, requestAnswers, requestsOf } from '@rtbench/measurer-records/readers';

/** A variant of the run: its id, and why it cannot run, when it cannot. */
export interface VariantSlot {
  id: string;
  /** 'unsupported': the measurer cannot measure it (reported, not a failure). */
  unavailable?: { kind: Extract<Failure['kind'], 'error' | 'runtime-unavailable' | 'unsupported'>; message: string };
}

/** The key of a case × variant in the map addResults returns. */
export const resultKey = (caseId: string, variantId: string): string => `${caseId}\u0000${variantId}`;

/**
 * One result per case × variant, added to the run in case order; a variant
 * that could not be resolved starts (and stays) failed with the reason.
 */
export function addResults(run: RunRecord, cases: readonly { id: string }[], variants: readonly VariantSlot[]): Map<string, CaseResult> {
  const resultFor = new Map<string, CaseResult>();
  for (const c of cases) {
    for (const v of variants) {
      const result: CaseResult = { caseId: c.id, variantId: v.id, status: 'ok', rounds: [], failures: [] };
      if (v.unavailable) {
        result.status = v.unavailable.kind === 'unsupported' ? 'unsupported' : 'failed';
        result.failures.push({ kind: v.unavailable.kind, message: v.unavailable.message });
      }
      resultFor.set(resultKey(c.id, v.id), result);
      run.results.push(result);
    }
  }
  return resultFor;
}

/**
 * Sets the statistics of every case x variant, recomputed from the raw
 * samples (in place): a result without rounds has none, whatever it held.
 */
export function computeStats(run: RunRecord): void {
  for (const result of run.results) {
    // A request round saved with phases is summarized on its steady requests (the headline: core headlineSamples);
    // a round cut short after its first request (a time-out under --concurrency) has none, and adds nothing.
    const headline = result.rounds.map((r) => pairable({ ...r, samples: [...headlineSamples(r.samples, requestsOf(r)?.phases)] }));
    if (!headline.some((r) => r.samples.length)) {
      delete result.stats;
      continue;
    }
    // The schema names the fields a run keeps; parsing picks exactly those. A
    // median of 0 ns (below the clock's resolution) has no finite relative CI:
    // such a result keeps its samples and goes without statistics.
    const stats = statsSchema.safeParse(summarizeArm(headline));
    // Stryker disable next-line ConditionalExpression: a failed parse's data is undefined, and `stats: undefined` reads and saves (JSON) as no statistics
    if (stats.success) result.stats = stats.data;
    else delete result.stats;
  }
}

/**
 * Whether a case × variant did no work the harness could see (stats'
 * without-work.ts): it returned undefined (its digest's value), or its time
 * per call was at the floor its processes measured.
 */
function withoutWork(result: CaseResult): CaseResult['withoutWork'] {
  const returnsUndefined = result.rounds.some((r) => r.digest.summary === UNDEFINED_SUMMARY);
  const near = nearFloor(result.rounds);
  if (!returnsUndefined && !near) return undefined;
  return { returnsUndefined, ...(near ? { nearFloor: near } : {}) };
}

/** A round's readings as the growth verdict takes them; undefined without a warm reading and samples. */
function residentSeries(memory: HostMemory, heap: EngineMetrics['heap']): ResidentSeries | undefined {
  if (memory.readyBytes === undefined || !memory.sampleBytes.length) return undefined;
  const held = memory.collected && heap?.heldReadyBytes !== undefined && heap.heldEndBytes !== undefined ? { readyBytes: heap.heldReadyBytes, endBytes: heap.heldEndBytes } : undefined;
  return {
    readyBytes: memory.readyBytes,
    sampleBytes: memory.sampleBytes,
    callsPerSample: memory.callsPerSample,
    ...(memory.endBytes !== undefined ? { endBytes: memory.endBytes } : {}),
    ...(memory.collected ? { collected: true } : {}),
    ...(held ? { held } : {}),
  };
}

/** Resident memory of a case × variant from its rounds' host readings (medians over processes, and the growth verdict); undefined when none was read. */
function memorySummary(result: Pick<CaseResult, 'rounds'>): MemorySummary | undefined {
  const read = result.rounds.flatMap((r) => (r.memory && r.samples.length ? [{ memory: r.memory, round: r }] : []));
  if (!read.length) return undefined;
  const growth = memoryGrowth(read.flatMap(({ memory, round }) => residentSeries(memory, round.metrics?.heap) ?? []));
  // A process's first case also pays the runtime's own first growth in a case (its young generation, the harness's
  // code): where some rounds served another case first, the peak above open is theirs.
  const afterAnother = read.filter(({ round }) => (lockstepOf(round)?.servedBefore ?? 0) > 0);
  return {
    rounds: read.length,
    peakBytes: median(read.map(({ memory }) => memory.peakBytes)),
    peakAboveOpenBytes: median((afterAnother.length ? afterAnother : read).map(({ memory }) => Math.max(0, memory.peakBytes - memory.openBytes))),
    ...(growth ? { growthPerCallBytes: growth.bytesPerCall, ...(growth.heldPerCallBytes !== undefined ? { heldPerCallBytes: growth.heldPerCallBytes } : {}), ...(growth.leak !== undefined ? { leak: growth.leak } : {}) } : {}),
  };
}

/** Sets the statistics, digest checks, final status and finish time of the record (in place; computed from the record itself and the clock). */
export function finishRun(run: RunRecord, interrupted: boolean): void {
  computeStats(run);
  for (const result of run.results) {
    const memory = memorySummary(result);
    if (memory) result.memory = memory;
    else delete result.memory;
    const without = withoutWork(result);
    if (without) result.withoutWork = without;
    else delete result.withoutWork;
    if (result.rounds.length && result.status === 'failed') result.status = 'partial';
    // The same variant must compute the same value in every round (a request case's masked answers: the same once holes are forgiven;
    // learned across its rounds, its responses alike in all of them).
    const standing = standingRound(result.rounds, requestAnswers);
    const unlike = standing && standing !== result.rounds[0] ? unlikeWithinText(requestAnswers(standing)!) : undefined;
    const own = new Set(result.rounds.map((r) => r.digest.hash));
    const ownAnswers = own.size > 1 ? answersByRound(result.rounds) : undefined;
    if (standing && standing !== result.rounds[0]) {
      if (unlike) {
        result.failures.push({ kind: 'digest-mismatch', message: `its responses are not proven the same work as each other (${unlike})` });
        result.status = 'partial';
      }
    } else if ((ownAnswers && !answersDifference(ownAnswers)) || (own.size > 1 && strictRoundsAlike(result.rounds))) {
      // Proven the same work: each process masked what changed in it, or (strict) answered alike but for its time-outs.
    } else if (own.size > 1) {
      result.failures.push({ kind: 'digest-mismatch', message: `the case returned different values in different rounds (${[...own].join(', ')}): it is not deterministic; a brought file says a value is random by design with --random '${result.caseId}'` });
      // Two digests: two rounds at least.
      result.status = 'partial';
    }
  }
  delete run.digestsRounded;
  delete run.sameWorkMasked;
  Object.assign(run, sameWorkOf(run));
  const failed = run.results.some((r) => r.failures.some((f) => f.kind !== 'unsupported' && f.kind !== 'warning')) || run.digestMismatches.length > 0;
  run.status = interrupted ? 'interrupted' : failed ? 'failed' : 'complete';
  run.finishedAt = new Date().toISOString();
}

/** What a run says of its variants' work, case by case: computed from its rounds alone. */
type SameWork = Pick<RunRecord, 'digestMismatches' | 'digestsRounded' | 'sameWorkMasked'>;

/**
 * Whether each case's variants did the same work, from their rounds: the
 * standing round's digests, or, where every variant saved masked answers,
 * those answers, whatever the digests say (a digest is the answers' hash, so
 * answers that differ are different work even where the digests were made
 * alike).
 */
export function sameWorkOf(run: Pick<RunRecord, 'cases' | 'results'>): SameWork {
  const digestMismatches: RunRecord['digestMismatches'] = [];
  const digestsRounded: NonNullable<RunRecord['digestsRounded']> = [];
  const sameWorkMasked: NonNullable<RunRecord['sameWorkMasked']> = [];
  for (const c of run.cases) {
    // Keyed by variant ids, which users name: no prototype.
    const digests: Record<string, string> = Object.create(null);
    const rounded: Record<string, string | undefined> = Object.create(null);
    for (const r of run.results) {
      const standing = standingRound(r.rounds, requestAnswers);
      if (r.caseId !== c.id || !standing) continue;
      digests[r.variantId] = standing.digest.hash;
      rounded[r.variantId] = standing.digest.rounded;
    }
    const oneDigest = new Set(Object.values(digests)).size <= 1;
    const masked = maskedAnswersOf(run.results.filter((r) => r.caseId === c.id && r.rounds[0]));
    // Alike digests over answers whose hashes differ were made alike apart from the answers: the answers decide.
    const where = masked && (!oneDigest || !sameHashes(Object.values(masked))) ? answersDifference(masked, unansweredOf(run.results, c.id)) : undefined;
    if (masked && !where) {
      const proof = maskedProof(c.id, Object.values(masked));
      if (proof.spans > 0) sameWorkMasked.push(proof);
    }
    // The same work once each process's changing spans are masked; strict, once how many answers came is left out.
    if (masked ? !where : oneDigest || sameStrictWork(run.results, c.id)) continue;
    // Exact comparison first; numbers rounded to DIGEST_SIGNIFICANT_DIGITS only when every variant's value holds fractions.
    const roundedHashes = Object.values(rounded);
    if (!where && roundedHashes.every((h) => h !== undefined) && new Set(roundedHashes).size === 1) {
      digestsRounded.push({ caseId: c.id, digits: DIGEST_SIGNIFICANT_DIGITS, digests });
    } else {
      digestMismatches.push({ caseId: c.id, digests, ...(where ? { where } : {}) });
    }
  }
  return { digestMismatches, ...(digestsRounded.length ? { digestsRounded } : {}), ...(sameWorkMasked.length ? { sameWorkMasked } : {}) };
}

/** Whether a strict case's variants answered alike, request by request, each by its standing round. */
function sameStrictWork(results: readonly CaseResult[], caseId: string): boolean {
  // Keyed by variant ids, which users name: no prototype.
  const rounds: Record<string, RoundRecord> = Object.create(null);
  for (const r of results) {
    const standing = r.caseId === caseId ? standingRound(r.rounds, requestAnswers) : undefined;
    if (standing) rounds[r.variantId] = standing;
  }
  return strictAlike(rounds, unansweredOf(results, caseId));
}

/** Whether one variant's strict rounds answered alike, request by request (each round forgiven the requests it got no answer to). */
function strictRoundsAlike(rounds: readonly RoundRecord[]): boolean {
  const named = (f: (round: RoundRecord) => unknown) => Object.fromEntries(rounds.map((round, i) => [`round ${i}`, f(round)]));
  return strictAlike(named((round) => round) as Record<string, RoundRecord>, named((round) => new Set(requestsOf(round)?.unanswered)) as Record<string, ReadonlySet<string>>);
}

/**
 * Whether strict rounds (by name) answered alike, request by request (core
 * same-work strict.ts): each saved its answers by request, and its digest is
 * of them (answers edited apart from their digest prove nothing).
 */
function strictAlike(rounds: Readonly<Record<string, RoundRecord>>, unanswered: Readonly<Record<string, ReadonlySet<string>>>): boolean {
  // Keyed by variant ids (which users name) or rounds: no prototype.
  const answers: Record<string, StrictAnswers> = Object.create(null);
  for (const [name, round] of Object.entries(rounds)) {
    const saved = requestsOf(round)?.strictAnswers;
    if (!saved || digest(strictAnswerText(saved, sha256)).hash !== round.digest.hash) return false;
    answers[name] = saved;
  }
  return strictDifference(answers, unanswered) === undefined;
}

/** A text's SHA-256 in hex: what a round's answers were digested with when they were measured. */
export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Per variant of the case, the requests (by name) that got no whole response in any of its rounds. */
function unansweredOf(results: readonly CaseResult[], caseId: string): Record<string, ReadonlySet<string>> {
  // Keyed by variant ids, which users name: no prototype.
  const out: Record<string, ReadonlySet<string>> = Object.create(null);
  for (const r of results) if (r.caseId === caseId) out[r.variantId] = new Set(r.rounds.flatMap((round) => requestsOf(round)?.unanswered ?? []));
  return out;
}

/** Whether every variant's answers are the same kinds with the same template hashes, in the same order. */
function sameHashes(byVariant: readonly (readonly MaskedAnswer[])[]): boolean {
  const key = (answers: readonly MaskedAnswer[]): string => JSON.stringify(answers.map((a) => [answerName(a), a.hash]));
  return new Set(byVariant.map(key)).size <= 1;
}

/** Each variant's answers standing for its work (whole again where packed), when every one has them (a request case not run strict). */
function maskedAnswersOf(results: readonly CaseResult[]): Record<string, readonly MaskedAnswer[]> | undefined {
  // Keyed by variant ids, which users name: no prototype.
  const out: Record<string, readonly MaskedAnswer[]> = Object.create(null);
  for (const r of results) {
    const answers = workAnswers(r.rounds);
    if (!answers) return undefined;
    out[r.variantId] = answers;
  }
  return results.length ? out : undefined;
}

/** Each round's own masked answers, by round, when every round has them (answers learned by each round alone: runs saved before). */
function answersByRound(rounds: readonly RoundRecord[]): Record<string, readonly MaskedAnswer[]> | undefined {
  const answers = rounds.map(requestAnswers);
  if (!answers.every((a) => a !== undefined)) return undefined;
  return Object.fromEntries(answers.map((a, i) => [`round ${i}`, a]));
}

/** How the case's work was proven: the most spans masked and characters they stood for of any variant, of how many bytes. */
function maskedProof(caseId: string, byVariant: readonly (readonly MaskedAnswer[])[]): NonNullable<RunRecord['sameWorkMasked']>[number] {
  const sum = (answers: readonly MaskedAnswer[], f: (a: MaskedAnswer) => number): number => answers.reduce((n, a) => n + f(a), 0);
  const most = byVariant.reduce((best, answers) => (sum(answers, (a) => a.spans) > sum(best, (a) => a.spans) ? answers : best));
  return { caseId, spans: sum(most, (a) => a.spans), maskedChars: sum(most, (a) => a.maskedChars), bytes: sum(most, (a) => a.bytes) };
}
