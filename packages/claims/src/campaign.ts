/**
 * A claims invocation as a campaign's planner (@rtbench/run
 * campaign-loop.ts), the one entry the command calls with what it parsed.
 * The command parses, plans a run as bench does (the plan port), runs the
 * loop, words its events and writes the view.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileStamp } from '@rtbench/host/files';
import type { ClaimsView } from '@rtbench/report/views';
import { isResolved } from '@rtbench/runtime-registry';
import { openCampaignState, type CampaignBudget, type CampaignPlanner, type CampaignRun, type CampaignStatePolicy, type SavedCampaign } from '@rtbench/campaign';
import type { PlanPort } from '@rtbench/run';
import { writeRunAtomically } from '@rtbench/saved-runs';
import { UsageError } from '@rtbench/core/usage-error';
import { checkClaims, claimsBlock, type ClaimFamily } from '@rtbench/verdicts';
import { claimsColumns, columnChecks, columnsView, type ColumnRun } from './across.ts';
import { suitesToCheck } from './checks.ts';
import { runBudgetMs, UNDECIDED_EXIT } from './defaults.ts';
import { assertClaimsFolder, claimsFolder } from './folder.ts';
import { claimRuns } from './plan.ts';
import { fewSets, ownRoundsMeasurer, planClaimsRun, type FewSets } from './run-plan.ts';

/** What the command parsed. */
export interface ClaimsRequest {
  /** The suites named; none: every suite that states claims. */
  suites: readonly string[];
  /** --claim: only the claims whose sentence contains one of these. */
  picked?: readonly string[];
  runtime?: readonly string[];
  across?: readonly string[];
  rounds: number;
  maxRounds: number;
  /** Sampling time per process and set. */
  setMs: number;
  /** --max-time, shared out among the runs for their added sets. */
  budgetMs: number;
  /** The verdicts' threshold and confidence the claims are checked with (timing's). */
  threshold: number;
  confidence: number;
  /** --warmup, ms. */
  warmupMs?: number;
  /** --fixed-warmup: each process warms for the warmup exactly, not until steady (smoke runs). */
  fixedWarmup?: boolean;
  timeout?: string;
  seed?: string | number;
  /** --schedule: how the timed sets are scheduled (lockstep when absent, or duet). */
  schedule?: string;
  resultsDir: string;
  /** --save; else a folder under `resultsDir` named by the suites, columns and time. */
  save?: string;
}

/** Held while an invocation saves runs into the folder. */
const LOCK_FILE = 'claims.lock';

/** What the claims' opening says: how many runs, and whether their first sets can give an interval. */
export interface ClaimsFacts {
  runs: number;
  /** Present when the first sets are fewer than an interval needs (run-plan.ts fewSets). */
  few?: FewSets;
}

/** One claims run: its suite, cases and variants as planned (filled once it is planned), and the sets it gets. */
export interface ClaimsRunAbout {
  suite: string;
  cases: number;
  /** Each variant's id and the version it resolved to (undefined: unavailable). */
  variants: { id: string; version?: string }[];
  rounds: number;
  maxRounds?: number;
}

/** What a claims run tells beside its runs: a run whose suite could not be made ready, its checks not made. */
export interface ClaimsStep {
  kind: 'not-checked';
  suite: string;
  checks: number;
  reason: string;
}

export type ClaimsPlanner = CampaignPlanner<ClaimsFacts, ClaimsRunAbout, ClaimsStep, ClaimsView>;

/** Its state: the question the folder's runs answer, so that --save naming it again continues it, and another question is refused. */
interface ClaimsState extends SavedCampaign<ClaimsIdentity> {
  schema: 'rtbench.claims';
  version: 1;
}

type ClaimsIdentity = Record<'suites' | 'picked' | 'columns' | 'rounds' | 'maxRounds' | 'setMs' | 'threshold' | 'confidence' | 'warmup' | 'timeout' | 'seed' | 'schedule', string | number>;

const CLAIMS_STATE: CampaignStatePolicy<ClaimsIdentity, ClaimsState> = {
  what: 'claims run',
  stateFile: 'claims.state',
  lockFile: LOCK_FILE,
  schema: 'rtbench.claims',
  version: 1,
  restart: 'remove it, or save into another --save folder',
  check: (json) => {
    const s = json as Partial<ClaimsState>;
    if (s.version !== 1) return { field: 'version', why: `expected 1, got ${JSON.stringify(s.version) ?? 'nothing'}` };
    if (typeof s.identity !== 'object' || s.identity === null) return { field: 'identity', why: 'expected an object' };
    return { state: json as ClaimsState };
  },
  begin: (identity) => ({ schema: 'rtbench.claims', version: 1, identity }),
  refused: (message) => new UsageError(message),
};

/**
 * The claims of `request` as a campaign's planner: the suites' claims
 * expanded into checks and planned, per column, as the smallest runs that
 * decide them, and the folder checked, before anything runs; its runs are
 * those runs in turn, each given its share of the budget for added sets; a
 * finished run's checks are decided from its samples and saved with it (a
 * run the folder already holds is read back and decided again, never taken
 * from what it stored); its answer, the claims view.
 */
export async function claimsCampaign(request: ClaimsRequest, plan: PlanPort): Promise<ClaimsPlanner> {
  if (request.across && request.runtime) throw new UsageError('use either --runtime (replace a variant in the claims) or --across (the claims on several releases), not both');
  const columns = claimsColumns(request.across, request.runtime);
  const suites = await suitesToCheck(request.suites, request.picked);

  // Every check of the invocation, per column, planned before anything runs.
  const planned = columns.flatMap((column) =>
    suites.flatMap(({ location, checks }) => claimRuns(location.name, columnChecks(location, checks, column)).map((p) => ({ column, plan: p, location }))),
  );
  const size = planned.reduce((n, r) => n + r.plan.checks.length, 0);
  if (size === 0) throw new UsageError(`no claim involves ${columns.flatMap((c) => c.replacements.map((r) => r.id)).join(', ')}: nothing to check`);
  const family: ClaimFamily = { confidence: request.confidence, size, threshold: request.threshold };

  // Checked before anything runs: where the runs go.
  const dir = claimsFolder(request.resultsDir, suites.map((s) => s.location.name), columns, fileStamp(new Date().toISOString()), request.save);
  assertClaimsFolder(dir, request.save !== undefined);
  const identity: ClaimsIdentity = {
    suites: request.suites.join(','),
    picked: request.picked?.join(',') ?? '',
    columns: columns.map((c) => c.label).join(','),
    rounds: request.rounds,
    maxRounds: request.maxRounds,
    setMs: request.setMs,
    threshold: request.threshold,
    confidence: request.confidence,
    // As the folder's identity has said it since it kept the option's text: "20ms".
    // A fixed warmup is another question: said after it ("20ms fixed"), so a folder without it reads as before.
    warmup: [request.warmupMs !== undefined ? `${request.warmupMs}ms` : '', request.fixedWarmup ? 'fixed' : ''].filter(Boolean).join(' '),
    timeout: request.timeout ?? '',
    seed: request.seed ?? '',
    schedule: request.schedule ?? '',
  };
  // Said once, before anything runs, when the first sets give no interval (a run of fixed rounds takes no --rounds).
  const few = planned.some((r) => !ownRoundsMeasurer(r.plan)) ? fewSets(request) : undefined;
  const saved: ColumnRun[] = [];
  // Runs whose suite could not be made ready (an app that built on no arm): said, their checks counted as not made.
  const notChecked: ClaimsStep[] = [];
  let tellStep: (step: ClaimsStep) => void = () => {};
  let next = 0;
  let budget: CampaignBudget | undefined;
  const plans = new Map<object, (typeof planned)[number]>();

  return {
    what: 'claims run',
    dir,
    lockFile: LOCK_FILE,
    folderOption: '--save',
    spendsBudget: true,
    async open(tell, given) {
      tellStep = tell;
      budget = given;
      const state = openCampaignState(dir, CLAIMS_STATE, identity, { lock: false });
      state.save();
      const kept = planned.filter((_, index) => existsSync(join(dir, runFile(index, planned[index]!)))).length;
      return { saved: kept, facts: { runs: planned.length, ...(few ? { few } : {}) } };
    },
    async next() {
      const index = next++;
      const item = planned[index];
      if (!item) return undefined;
      const about: ClaimsRunAbout = { suite: item.location.name, cases: item.plan.cases.length, variants: [], rounds: request.rounds };
      const run: CampaignRun<ClaimsRunAbout> = {
        file: runFile(index, item),
        about,
        estimateMs: 0,
        plan: async () => {
          const req = await planClaimsRun(plan, item.location, item.plan, {
            rounds: request.rounds,
            maxRounds: request.maxRounds,
            budgetMs: runBudgetMs(budget?.leftMs() ?? request.budgetMs, planned.length - index),
            target: request.threshold,
            setMs: request.setMs,
            family,
            ...(request.warmupMs !== undefined ? { warmupMs: request.warmupMs } : {}),
            ...(request.fixedWarmup ? { fixedWarmup: true } : {}),
            ...(request.timeout ? { timeout: request.timeout } : {}),
            ...(request.seed !== undefined ? { seed: request.seed } : {}),
            ...(request.schedule ? { schedule: request.schedule } : {}),
          });
          // What the run's heading names, known once it is planned.
          const { rounds, adaptive } = req.options.roundPlan;
          Object.assign(about, { suite: req.suite.name, cases: req.suite.cases.length, variants: req.variants.map((v) => ({ id: v.spec.id, ...(isResolved(v) ? { version: v.target.version } : {}) })), rounds, ...(adaptive ? { maxRounds: adaptive.maxRounds } : {}) });
          return req;
        },
      };
      plans.set(run, item);
      return run;
    },
    unplanned(run, error) {
      if (!(error instanceof UsageError && error.ofRun)) return false;
      const item = plans.get(run)!;
      const step: ClaimsStep = { kind: 'not-checked', suite: item.location.name, checks: item.plan.checks.length, reason: error.errors.join('; ') };
      notChecked.push(step);
      tellStep(step);
      return true;
    },
    async told(run, record) {
      const item = plans.get(run)!;
      // Decided from the run's samples, also for a run read back from the folder.
      record.claims = claimsBlock(checkClaims(record, item.plan.checks, family), family);
      writeRunAtomically(join(dir, run.file!), record);
      saved.push({ run: record, file: join(dir, run.file!), column: item.column.label });
    },
    async end(ending) {
      if (ending === 'stopped') return { exit: 1 };
      // A bisect command names a suite as it was typed here (a path stays a path).
      const typedName = new Map(suites.map((s) => [s.location.name, s.typed]));
      const view = columnsView(saved, columns, request.across !== undefined, (suite) => typedName.get(suite) ?? suite, notChecked.map(notCheckedNote));
      const failed = notChecked.length > 0 || saved.some((s) => s.run.status === 'failed');
      const exit = view.counts.broken > 0 || failed ? 1 : view.counts.undecided > 0 ? UNDECIDED_EXIT : 0;
      return { view, exit };
    },
  };
}

/** What the answer says of a run whose suite could not be made ready. */
const notCheckedNote = (step: ClaimsStep): string => `${step.suite}: ${step.checks} ${step.checks === 1 ? 'check' : 'checks'} not made: ${step.reason}`;

/** A run's file in the folder: its place in the invocation, its suite and its column. */
function runFile(index: number, item: { column: { label: string }; location: { name: string } }): string {
  return `${String(index + 1).padStart(2, '0')}-${item.location.name}${item.column.label ? `-${item.column.label.replace(/[^a-z0-9@.-]+/gi, '_')}` : ''}.json`;
}
