/**
 * Request-shaped cases: each arm of a replicate is one fresh server of the
 * variant serving the suite's handler, sent the declaration's requests one
 * at a time; the host reads every request's CPU from the process's threads
 * (@rtbench/host-timed request/). One declaration is one unit feeding three
 * cases: the JavaScript thread's CPU, all threads', and the empty handler's
 * (the server's own cost, shown beside, never subtracted). A round's samples
 * are its requests in order, so the first is the process's first request;
 * the unit of replication is the process. --concurrency N keeps N requests
 * in flight, and each request's figure is its wave's CPU over the requests
 * answered in it (host-timed request/waves.ts). The server's resident
 * memory, read by the host too, is saved with each case of the round.
 */
import { digest, type RequestDeclaration } from '@rtbench/core';
import { drawRequests, handlerOf, isRequestCaseSpec, type RequestCaseSpec, type RequestFigure } from '@rtbench/core/request';
import { type ServerPermissions } from '@rtbench/core/server-permissions';
import type { HostMemory, RoundRecord } from '@rtbench/core/schema';
import { THREAD_CPU_SUPPORT } from '@rtbench/host/tools';
import { armAnswers, bundleRequestServer, runRequestRound, type RequestRoundOutcome, type RequestRoundValues, type SameWorkRule, type ServeUntil } from '@rtbench/host-timed';
import { MeasurerRefused, type Arm, type ArmResult, type CaseOutcome, type Measurer, type MeasurerDescriptor, type MeasurerOption, type PrepareContext, type PreparedMeasurer, type ReplicateContext, type Unit } from '../measurer.ts';
import type { NodeEnvUse } from '@rtbench/host/programs';
import { REQUEST_CPU_RECORD } from '@rtbench/measurer-records';
import { oneLine } from '@rtbench/core/words';
import { nodeEnvPerArm, requestSuiteCode } from '../suite-code.ts';
import { TIMING_DEFAULTS } from './timing-defaults.ts';
import { profilePhases, requestSteadyState, roundServing, SERVE_UNTIL_STEADY, steadyEnoughOf, steadyFromOf } from './request-phases.ts';
import { isSmoke } from './measure-options.ts';

/** A request unanswered this long counts as never answered (the run's --timeout when shorter). */
const REQUEST_TIMEOUT_MS = 10_000;
/** A server gets at least this long to start, whatever --timeout says of one request (a loaded machine starts processes slowly). */
const MIN_START_MS = 20_000;

/** esbuild's failure in one line: each error's place and text, not its heading ("Build failed with 1 error:") alone. */
export function buildFailureText(error: unknown): string {
  const errors = (error as { errors?: { text: string; location?: { file: string; line: number; column: number } | null }[] }).errors;
  if (!errors?.length) return oneLine((error as Error).message);
  return oneLine(errors.map((e) => `${e.location ? `${e.location.file}:${e.location.line}:${e.location.column}: ` : ''}${e.text}`).join('; '));
}

/** What every empty-handler request answers (request/round.ts checks it). */
const EMPTY_ANSWER = 'the empty handler: 200, no body';

/** The host's reading: the kernel's per-thread run time, in ns, exact for a thread that is blocked. */
const SCHEDSTAT_CLOCK = { name: 'host /proc/<pid>/task/<tid>/schedstat', resolutionNs: 1, readCostNs: 0, edgeAligned: false };

const SAME_WORK = 'same-work';

const SAME_WORK_OPTION: MeasurerOption = {
  name: SAME_WORK,
  kind: 'value',
  value: 'masked|strict',
  help: "Request-shaped cases: how responses prove the same work. masked (default): values (times, ids, counters) that differ between an arm's responses to a request, in one process or across its processes, are masked, words never; strict: every byte of every body",
};

const CONCURRENCY = 'concurrency';
/** More in flight than this is a load test, which http load cases are for. */
const MOST_IN_FLIGHT = 256;

const CONCURRENCY_OPTION: MeasurerOption = {
  name: CONCURRENCY,
  kind: 'value',
  value: 'n',
  help: `Request-shaped cases: requests kept in flight to each server process (default 1, one at a time; at most ${MOST_IN_FLIGHT}); a request's CPU is then its wave's over the requests answered in it, and the client's latency shows the queueing`,
};

/** --concurrency: a whole number from 1 to MOST_IN_FLIGHT; anything else refused in one line. */
function parseConcurrency(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < 1 || n > MOST_IN_FLIGHT) throw new MeasurerRefused(`--${CONCURRENCY} ${text}: write a whole number of requests from 1 to ${MOST_IN_FLIGHT}`);
  return n;
}

/** --same-work: masked or strict; anything else refused in one line. */
function parseSameWork(text: string): SameWorkRule {
  if (text === 'masked' || text === 'strict') return text;
  throw new MeasurerRefused(`--${SAME_WORK} ${text}: write masked or strict`);
}

/** The same-work rule and the requests in flight, carried to the rounds. */
function prepareRequestCpu(context: PrepareContext): PreparedMeasurer {
  const sameWork = context.given[SAME_WORK];
  const concurrency = context.given[CONCURRENCY];
  const setup: RequestSetup = {
    ...(sameWork === undefined ? {} : { sameWork: parseSameWork(String(sameWork)) }),
    ...(concurrency === undefined ? {} : { concurrency: parseConcurrency(String(concurrency)) }),
  };
  return Object.keys(setup).length ? { setup } : {};
}

/** What prepare() hands build(). */
interface RequestSetup {
  sameWork?: SameWorkRule;
  concurrency?: number;
}

export const REQUEST_CPU: MeasurerDescriptor = {
  name: 'request-cpu',
  chosenBy: 'suite',
  owns: (cases) => cases.length > 0 && cases.every(isRequestCaseSpec),
  suiteKind: 'request-shaped (CPU per request, read by the host)',
  record: REQUEST_CPU_RECORD,
  platforms: THREAD_CPU_SUPPORT,
  warmsInRuntime: false,
  profilesServers: true,
  measures: 'CPU time per request of a handler served by the runtime, read from its threads by the host',
  options: [SAME_WORK_OPTION, CONCURRENCY_OPTION],
  prepare: prepareRequestCpu,
  help: 'one fresh server per case, variant and round, sent its requests one at a time (or --concurrency N in flight); CPU per request read from /proc',
  servedRounds: (cases, setup) =>
    requestUnits(cases as readonly RequestCaseSpec[]).map(({ cases: [first] }) => {
      const serving = roundServing((first as RequestCaseSpec).declaration.requests, isSmoke(setup));
      const least = serving.untilSteady ? Math.min(SERVE_UNTIL_STEADY.minRequests, serving.requests) : serving.requests;
      return {
        requests: { least, most: serving.requests },
        concurrency: (setup.own as RequestSetup | undefined)?.concurrency ?? 1,
        emptyRequests: serving.emptyRequests,
        ...(serving.untilSteady ? { withinMs: SERVE_UNTIL_STEADY.maxServeMs } : {}),
      };
    }),
  // Timing's, but a fixed number of rounds: a round is a whole process (the rounds a plan gives request cases).
  defaults: { ...TIMING_DEFAULTS, bench: { ...TIMING_DEFAULTS.bench, adaptive: 'never' }, compare: { ...TIMING_DEFAULTS.compare, adaptive: 'never' } },
  build(setup) {
    const cases = setup.cases as readonly RequestCaseSpec[];
    const own = setup.own as RequestSetup | undefined;
    // A smoke run: a small count a round, and a short profile pass (request-phases.ts).
    const smoke = isSmoke(setup);
    const budget = { programDir: setup.programDir, timeoutMs: Math.max(MIN_START_MS, setup.timeoutMs), requestTimeoutMs: Math.min(REQUEST_TIMEOUT_MS, setup.timeoutMs), boundMs: setup.timeoutMs, sameWork: own?.sameWork ?? 'masked', concurrency: own?.concurrency ?? 1, smoke };
    return {
      measurer: requestMeasurer(budget, (line) => setup.warn(`${setup.suite.name}: ${line}`)),
      ...(smoke ? { fields: { smoke: true } } : {}),
      units: requestUnits(cases),
      cases: cases.map(({ id, name, group, params, metric }) => ({ id, name, ...(group ? { group } : {}), params: { ...params }, metric })),
      ownCode: (arms) => requestSuiteCode(setup.suite, arms),
    };
  },
};

interface RequestBudget {
  programDir: string;
  timeoutMs: number;
  requestTimeoutMs: number;
  /** A round sends no more requests past this (the run's --timeout) and keeps what it measured. */
  boundMs: number;
  sameWork: SameWorkRule;
  concurrency: number;
  /** A smoke run (--fixed-warmup): roundServing's and profilePhases' smoke sizes. */
  smoke: boolean;
}

/** One unit per declaration, with the (filtered) figures it feeds, in declaration order. */
function requestUnits(cases: readonly RequestCaseSpec[]): Unit[] {
  const byDeclaration = new Map<RequestDeclaration, RequestCaseSpec[]>();
  for (const c of cases) byDeclaration.set(c.declaration, [...(byDeclaration.get(c.declaration) ?? []), c]);
  return [...byDeclaration.values()].map((cs) => ({ key: cs[0]!.id, cases: cs }));
}

type ServerBundle = { path: string; nodeEnv?: NodeEnvUse; permissions?: ServerPermissions } | { error: string } | { unsupported: string };

/**
 * Why a runtime that is itself the server (the Workers runtime) cannot serve
 * the declaration's handler: the suite says so (an app's Workers edition not
 * built), or the handler's compatibility settings are beyond it. That
 * runtime's one line, before any round; undefined for a runtime that runs a
 * program, or one that can.
 */
export function handlerRefusal(d: Pick<RequestDeclaration, 'handlerUnsupported' | 'compatibility'>, arm: Pick<Arm, 'plugin' | 'target'>): string | undefined {
  const programs = arm.plugin.programs;
  if (programs.kind !== 'server') return undefined;
  return d.handlerUnsupported?.() ?? (d.compatibility ? programs.compatibilityProblem?.(arm.target, d.compatibility) : undefined);
}

/** `warn` saying each line once: a brought Worker's requests are cases of one handler, each with the same line to say. */
export function sayingOnce(warn: (line: string) => void): (line: string) => void {
  const said = new Set<string>();
  return (line) => {
    if (said.has(line)) return;
    said.add(line);
    warn(line);
  };
}

function requestMeasurer(budget: RequestBudget, warn: (line: string) => void): Measurer {
  const bundles = new Map<string, Promise<ServerBundle>>();
  // `mapped`: the profile's server, bundled apart with a source map (a server the suite brings is its own).
  const bundled = (d: RequestDeclaration, key: string, arm: Arm, mapped = false): Promise<ServerBundle> => {
    const id = `${key}\u0000${arm.id}${mapped ? '\u0000mapped' : ''}`;
    let p = bundles.get(id);
    const programs = arm.plugin.programs;
    // A server the suite brings (a framework's own) runs as it is on a runtime whose plug-in runs programs; a runtime that
    // is itself the server (its plug-in serves modules) serves the handler.
    const brought = programs.kind === 'process' ? d.server?.(arm.packages ?? {}) : undefined;
    const incompatible = p ? undefined : handlerRefusal(d, arm);
    if (incompatible) {
      p = Promise.resolve({ unsupported: incompatible });
      bundles.set(id, p);
    }
    if (!p && brought) {
      p = Promise.resolve('program' in brought ? { path: brought.program, ...(brought.permissions ? { permissions: brought.permissions } : {}) } : brought);
      bundles.set(id, p);
    }
    if (!p) {
      p = bundleRequestServer(handlerOf(d, arm.packages ?? {}), arm, `${d.name.replace(/[^a-z0-9-]+/gi, '-')}-${arm.plugin.name}`, budget.programDir, d.define, mapped).catch((error: unknown) => ({ error: `bundling the handler failed: ${buildFailureText(error)}` }));
      bundles.set(id, p);
    }
    return p;
  };
  // Each arm's answers are learned across its rounds: a value fixed per process is masked once another process printed another.
  const learners = new Map<string, ReturnType<typeof armAnswers>>();
  const learnerOf = (key: string, arm: Arm): ReturnType<typeof armAnswers> => {
    const id = `${key}\u0000${arm.id}`;
    const learner = learners.get(id) ?? armAnswers();
    learners.set(id, learner);
    return learner;
  };
  // Each handler's arms are bundled before its first round, and the NODE_ENV each got is said once a run: the
  // requests of one brought Worker are cases of one handler, and each would say the same line.
  const saidFor = new Set<string>();
  const sayOnce = sayingOnce(warn);
  const sayNodeEnv = async (d: RequestDeclaration, key: string, arms: readonly Arm[]): Promise<void> => {
    if (saidFor.has(key)) return;
    saidFor.add(key);
    const uses = await Promise.all(arms.map(async (arm) => ({ variantId: arm.id, bundle: await bundled(d, key, arm) })));
    const line = nodeEnvPerArm(uses.flatMap((u) => ('nodeEnv' in u.bundle && u.bundle.nodeEnv ? [{ variantId: u.variantId, nodeEnv: u.bundle.nodeEnv }] : [])));
    if (line) sayOnce(line);
  };
  return {
    descriptor: REQUEST_CPU,
    async profileServing(unit, arm) {
      const d = (unit.cases as readonly RequestCaseSpec[])[0]!.declaration;
      const server = await bundled(d, unit.key, arm, true);
      if (!('path' in server)) return server;
      const phases = profilePhases(budget.smoke);
      return {
        serverPath: server.path,
        requests: drawRequests(d, d.requests ?? SERVE_UNTIL_STEADY.maxRequests),
        ...(phases ? { phases } : {}),
        requestTimeoutMs: budget.requestTimeoutMs,
        timeoutMs: budget.timeoutMs,
        ...(d.compatibility ? { compatibility: d.compatibility } : {}),
        ...(server.permissions ? { permissions: server.permissions } : {}),
      };
    },
    async replicate(unit: Unit, arms: readonly Arm[], context: ReplicateContext): Promise<ArmResult[]> {
      const cases = unit.cases as readonly RequestCaseSpec[];
      const declaration = cases[0]!.declaration;
      // A count the suite fixed is served whole; else the round serves until steady, within its bounds (a smoke run's: a small count, whole).
      const serving = roundServing(declaration.requests, budget.smoke);
      const requests = drawRequests(declaration, serving.requests);
      const until: ServeUntil | undefined = serving.untilSteady ? { minRequests: SERVE_UNTIL_STEADY.minRequests, maxServeMs: SERVE_UNTIL_STEADY.maxServeMs, enough: (ms, waves) => steadyEnoughOf(ms, waves, budget.concurrency) } : undefined;
      await sayNodeEnv(declaration, unit.key, context.runArms ?? arms);
      const out: ArmResult[] = [];
      for (const [position, arm] of arms.entries()) {
        if (context.signal?.aborted) break;
        context.onArmStart?.(arm);
        const server = await bundled(declaration, unit.key, arm);
        const outcome: RequestRoundOutcome =
          'path' in server
            ? await runRequestRound(arm, { serverPath: server.path, requests, emptyRequests: serving.emptyRequests, requestTimeoutMs: budget.requestTimeoutMs, timeoutMs: budget.timeoutMs, boundMs: budget.boundMs, sameWork: budget.sameWork, learner: learnerOf(unit.key, arm), concurrency: budget.concurrency, ...(until ? { until } : {}), ...(declaration.normalize ? { normalize: declaration.normalize } : {}), ...(declaration.compareHeaders ? { compareHeaders: declaration.compareHeaders } : {}), ...(declaration.compatibility ? { compatibility: declaration.compatibility } : {}), ...(server.permissions ? { permissions: server.permissions } : {}), ...(context.signal ? { signal: context.signal } : {}) })
            : 'unsupported' in server
              ? { ok: false, kind: 'unsupported', message: server.unsupported }
              : { ok: false, kind: 'error', message: server.error };
        out.push({
          armId: arm.id,
          warnings: outcome.ok ? roundWarnings(outcome) : [],
          outcomes: cases.map((c) => caseOutcome(c.figure, outcome, context.round, position, budget)),
          ...(outcome.ok ? { text: `${outcome.jsThreadMs.length} requests` } : {}),
        });
      }
      return out;
    },
  };
}

/** The samples of one figure, in ms. */
function samplesOf(figure: RequestFigure, v: RequestRoundValues): number[] {
  switch (figure) {
    case 'jsThread':
      return v.jsThreadMs;
    case 'allThreads':
      return v.allThreadsMs;
    case 'emptyHandler':
      return v.emptyMs;
  }
}

function caseOutcome(figure: RequestFigure, outcome: RequestRoundOutcome, round: number, position: number, budget: RequestBudget): CaseOutcome {
  if (!outcome.ok) {
    if (outcome.kind === 'unsupported') return { kind: 'unsupported', reason: outcome.message };
    return { kind: 'failure', failure: { kind: outcome.kind, message: outcome.message, ...(outcome.output ? { stderr: outcome.output } : {}) } };
  }
  const samples = samplesOf(figure, outcome);
  const after = figure === 'jsThread' ? outcome.afterJsMs : figure === 'allThreads' ? outcome.afterAllMs : undefined;
  // The empty handler's own requests: why there are none is what ended them (or the round).
  if (samples.length === 0) return { kind: 'failure', failure: { kind: 'error', message: outcome.emptyProblem ?? outcome.problem ?? 'the empty handler answered no request' } };
  const handler = figure !== 'emptyHandler';
  // The handler's phases: where its requests became steady on this figure's threads (the empty handler's are its own).
  const steadyFrom = handler ? steadyFromOf(samples, outcome.waves, budget.concurrency) : undefined;
  const record: RoundRecord = {
    round,
    order: position,
    samples,
    iterationsPerSample: 1,
    warmupIterations: 0,
    async: true,
    clock: SCHEDSTAT_CLOCK,
    ...(handler ? { steadyState: requestSteadyState(samples, steadyFrom) } : {}),
    // The empty handler's answers are checked by the round (each a 200 with no body): how many came varies with what the handler's requests did.
    digest: digest(handler ? outcome.answer : EMPTY_ANSWER),
    ...memoryOf(handler, outcome.memory, steadyFrom),
    wallMs: outcome.wallMs,
    requests: {
      ...(handler ? { kinds: outcome.kinds } : {}),
      // The handler's outcomes are its cases'; the empty handler's requests all answered (those that did not ended them).
      outcomes: handler ? outcome.outcomes : { ok: samples.length, serverError: 0, threw: 0, notAResponse: 0, timedOut: 0 },
      jsThread: outcome.jsThread,
      threads: outcome.threads,
      unsettled: outcome.unsettled,
      ...(handler && outcome.threadClockMs ? { threadClockMs: outcome.threadClockMs } : {}),
      ...(handler && outcome.consoleLines !== undefined ? { consoleLines: outcome.consoleLines } : {}),
      ...(handler && outcome.answers ? { answers: outcome.answers } : {}),
      ...(handler && outcome.unanswered ? { unanswered: outcome.unanswered } : {}),
      ...(handler && outcome.strictAnswers ? { strictAnswers: outcome.strictAnswers } : {}),
      ...(handler ? { sameWork: budget.sameWork, latencyMs: outcome.latencyMs } : {}),
      // The same threads' CPU after each request, up to the next one's start: work it left to run later.
      ...(after ? { afterMs: after } : {}),
      // The empty handler's requests go one at a time between waves; the most that were in flight, not the most asked.
      ...(handler && outcome.inFlight > 1 ? { concurrency: outcome.inFlight } : {}),
      ...(handler ? { phases: steadyFrom === undefined ? {} : { steadyFrom } } : {}),
    },
  };
  const warnings = figureWarnings(figure, outcome);
  return { kind: 'round', record, ...(warnings.length ? { warnings } : {}) };
}

/**
 * The server's resident memory as a case of the round saves it: its peak
 * while serving above what it held listening, and, for the handler's cases,
 * the reading after the warm-up (after the request before `steadyFrom`) and
 * after each steady request, the series the growth rule reads (one call a
 * sample). The empty handler's case and a round never steady keep the peak
 * alone; so does a series with a reading missing.
 */
export function memoryOf(handler: boolean, memory: RequestRoundValues['memory'], steadyFrom: number | undefined): { memory?: HostMemory } {
  if (!memory) return {};
  const { requestBytes, ...read } = memory;
  const steady = handler && steadyFrom !== undefined ? requestBytes.slice(steadyFrom - 1) : [];
  const whole = steady.length > 1 && steady.every((b) => b !== undefined) ? (steady as number[]) : undefined;
  return { memory: { ...read, ...(whole ? { readyBytes: whole[0]!, sampleBytes: whole.slice(1) } : { sampleBytes: [] }), callsPerSample: 1 } };
}

/** What every case of a round says beside its figures: a round cut short, the round's notes, where the JavaScript ran. Said once per text. */
export function roundWarnings(v: RequestRoundValues): string[] {
  const out: string[] = [];
  if (v.problem) out.push(`a round stopped early: ${v.problem.replace(/\d+ requests/, 'requests')}`);
  out.push(...v.notes);
  if (!v.jsThread.main) out.push(`the JavaScript ran on a thread other than the main one (${v.jsThread.name})`);
  return out;
}

/**
 * What one figure's case says of its own requests: the handler's outcomes and console lines under the handler's
 * cases, the empty handler's requests cut short under its case (its requests all answered: the handler's outcomes
 * are not its own).
 */
export function figureWarnings(figure: RequestFigure, v: RequestRoundValues): string[] {
  if (figure === 'emptyHandler') return v.emptyProblem ? [`the empty handler's requests stopped early: ${v.emptyProblem}`] : [];
  const out: string[] = [];
  if (v.outcomes.threw) out.push('the handler threw on some requests (counted; their CPU is in the figures)');
  if (v.outcomes.notAResponse) out.push('the handler answered something that is not a Response on some requests (counted; their CPU is in the figures)');
  // A body over the bound is said by the round's note.
  if (v.outcomes.timedOut > (v.outcomes.tooLong ?? 0)) out.push('some requests got no response in time (counted; they have no CPU figure)');
  if (v.consoleLines) {
    const perRequest = +(v.consoleLines / v.jsThreadMs.length).toFixed(2);
    out.push(`the handler wrote ${perRequest} console ${perRequest === 1 ? 'line' : 'lines'} per request (kept out of the table, their cost in the figures, counted in the saved run)`);
  }
  return out;
}
