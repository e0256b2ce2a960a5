/**
 * A claims invocation as one campaign (@rtbench/run campaign.ts), the one
 * entry the command calls with what it parsed: the suites' claims expanded
 * into checks and planned, per column, as the smallest runs that decide
 * them, before anything runs; the folder opened and locked; each run planned
 * through the plan port (run-plan.ts), measured into the folder within its
 * share of the budget and stoppable, its checks decided and saved with it;
 * then the view handed back and the exit code. The command parses, plans a
 * run as bench does, prints the view; the lines it is told, it colours.
 */
import { join } from 'node:path';
import { fileStamp, writeFileAtomically } from '@rtbench/host';
import { counted, formatClock, pageReporter, type ClaimsView } from '@rtbench/report';
import { isResolved } from '@rtbench/runtime-kit';
import { assertWritableOutput, CampaignBudget, INTERRUPTED_EXIT, openCampaignFolder, runIntoFile, whileStoppable, writeRunAtomically, type CampaignSay, type PlanPort, type RunRequest } from '@rtbench/run';
import { UsageError } from '@rtbench/suite-loader';
import { checkClaims, claimsBlock, type ClaimFamily } from '@rtbench/verdicts';
import { claimsColumns, columnChecks, columnsView, type ColumnRun } from './across.ts';
import { suitesToCheck } from './checks.ts';
import { runBudgetMs, UNDECIDED_EXIT } from './defaults.ts';
import { assertClaimsFolder, claimsFolder } from './folder.ts';
import { claimRuns } from './plan.ts';
import { fewSetsLine, ownRoundsMeasurer, planClaimsRun } from './run-plan.ts';

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
  budgetMs: number;
  /** The verdicts' threshold and confidence the claims are checked with (timing's). */
  threshold: number;
  confidence: number;
  warmup?: string;
  timeout?: string;
  seed?: string | number;
  /** --schedule: how the timed sets are scheduled (lockstep when absent, or duet). */
  schedule?: string;
  resultsDir: string;
  /** --save; else a folder under `resultsDir` named by the suites, columns and time. */
  save?: string;
  /** --html: the claims as a page, at this path or (true) in the folder. */
  html?: string | true;
}

/** What the campaign asks of the command: each run planned, its lines said, the view printed. */
export interface ClaimsPorts {
  plan: PlanPort;
  say: CampaignSay;
  answer: (view: ClaimsView) => void;
}

const LOCK_FILE = 'claims.lock';

/** Checks the claims; its exit code: 0 every claim held, 1 one broke or a run failed, UNDECIDED_EXIT some undecided, INTERRUPTED_EXIT stopped. */
export async function runClaims(request: ClaimsRequest, ports: ClaimsPorts): Promise<number> {
  const { say } = ports;
  if (request.across && request.runtime) throw new UsageError('use either --runtime (replace a variant in the claims) or --across (the claims on several releases), not both');
  const columns = claimsColumns(request.across, request.runtime);
  const suites = await suitesToCheck(request.suites, request.picked);

  // Every check of the invocation, per column, planned before anything runs.
  const planned = columns.flatMap((column) =>
    suites.flatMap(({ location, checks }) => claimRuns(location.name, columnChecks(location, checks, column)).map((plan) => ({ column, plan, location }))),
  );
  const size = planned.reduce((n, r) => n + r.plan.checks.length, 0);
  if (size === 0) throw new UsageError(`no claim involves ${columns.flatMap((c) => c.replacements.map((r) => r.id)).join(', ')}: nothing to check`);
  const family: ClaimFamily = { confidence: request.confidence, size, threshold: request.threshold };

  // Checked before anything runs: where the runs and the page go.
  const dir = claimsFolder(request.resultsDir, suites.map((s) => s.location.name), columns, fileStamp(new Date().toISOString()), request.save);
  assertClaimsFolder(dir, request.save !== undefined);
  const html = request.html === true ? join(dir, 'claims.html') : request.html;
  if (typeof request.html === 'string') assertWritableOutput(request.html, '--html');
  const unlock = openCampaignFolder(dir, LOCK_FILE, 'claims run', '--save');
  // Said once, before anything runs, when the first sets give no interval (a run of fixed rounds takes no --rounds).
  const few = planned.some((r) => !ownRoundsMeasurer(r.plan)) ? fewSetsLine(request) : undefined;
  if (few) say(few.line, few.tone);

  const budget = new CampaignBudget(request.budgetMs);
  const saved: ColumnRun[] = [];
  const stopped = await whileStoppable((line) => say(line, 'warning'), `stopping the current run; the runs so far are saved in ${dir}`, async (signal) => {
    for (const [index, { column, plan, location }] of planned.entries()) {
      const file = join(dir, `${String(index + 1).padStart(2, '0')}-${location.name}${column.label ? `-${column.label.replace(/[^a-z0-9@.-]+/gi, '_')}` : ''}.json`);
      const run = await planClaimsRun(ports.plan, location, plan, {
        rounds: request.rounds,
        maxRounds: request.maxRounds,
        budgetMs: runBudgetMs(budget.leftMs(), planned.length - index),
        target: request.threshold,
        setMs: request.setMs,
        family,
        ...(request.warmup ? { warmup: request.warmup } : {}),
        ...(request.timeout ? { timeout: request.timeout } : {}),
        ...(request.seed !== undefined ? { seed: request.seed } : {}),
        ...(request.schedule ? { schedule: request.schedule } : {}),
      });
      say(runHeading(run), 'heading');
      let lastSet = -1;
      const record = await runIntoFile(run, file, {
        signal,
        // A line as each set starts: how far a long run has gone, and which sets were added for undecided checks.
        onProgress: (e) => {
          if (e.round <= lastSet) return;
          lastSet = e.round;
          say(`  set ${e.round + 1}${e.adaptive ? ' (added: a check is undecided)' : ` of ${e.rounds}`} [${formatClock(e.elapsedMs)}]`, 'note');
        },
      });
      record.claims = claimsBlock(checkClaims(record, plan.checks, family), family);
      writeRunAtomically(file, record);
      saved.push({ run: record, file, column: column.label });
      if (record.status === 'interrupted') return true;
    }
    return false;
  }).finally(unlock);
  if (stopped) {
    say(`stopped: the runs so far are in ${dir}`, 'ending');
    return INTERRUPTED_EXIT;
  }

  // A bisect command names a suite as it was typed here (a path stays a path).
  const typedName = new Map(suites.map((s) => [s.location.name, s.typed]));
  const view = columnsView(saved, columns, request.across !== undefined, (suite) => typedName.get(suite) ?? suite);
  ports.answer(view);
  if (html !== undefined) {
    writeFileAtomically(html, pageReporter().render(view, { color: false, columns: 100 }));
    say(`html report ${html}`, 'note');
  }
  say(`saved ${counted(saved.length, 'run')} in ${dir} (rtbench report ${dir})`, 'note');
  if (view.counts.broken > 0 || saved.some((s) => s.run.status === 'failed')) return 1;
  return view.counts.undecided > 0 ? UNDECIDED_EXIT : 0;
}

/** "claims-fixture: 2 cases × node (26.1.0), deno (2.9.0) × 6–16 sets". */
function runHeading(run: RunRequest): string {
  const names = run.variants.map((v) => (isResolved(v) ? `${v.spec.id} (${v.target.version})` : `${v.spec.id} (unavailable)`));
  const { rounds, adaptive } = run.options.roundPlan;
  return `${run.suite.name}: ${counted(run.suite.cases.length, 'case')} × ${names.join(', ')} × ${adaptive ? `${rounds}–${adaptive.maxRounds}` : rounds} sets`;
}
