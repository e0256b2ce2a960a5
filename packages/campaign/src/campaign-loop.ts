/**
 * The campaign loop: what every command that plans many runs (bisect, a
 * release matrix, claims) does around its planner. `runCampaign` owns the
 * folder (checked, made, locked), the budget and the exit code, the stop
 * (a signal, the launcher gone) and the resume: a run the planner asks for
 * whose file the folder already holds, complete, is read back instead of
 * measured. It tells the command what happens as typed events; the command
 * words them and writes the pages. A planner only plans: its next run, what
 * a finished run tells it, and its answer as a view. It renders no format and
 * words no line.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '@rtbench/core/schema';
import { BUDGET_EXIT, CampaignBudget, openCampaignFolder, runIntoFile } from './campaign.ts';
import { readCampaignRun } from './campaign-files.ts';
import { UsageError } from '@rtbench/core/usage-error';
import { listenForStop, SIGNAL_EXIT, type RunRequest, type StopCause, type StopPorts, type StopSignal } from '@rtbench/run';

/** One run a planner asks for: planned through the plan port, saved as `file` in the campaign's folder. */
export interface CampaignRun<About> {
  /** The run planned, asked once it passed the budget (planning may install releases). */
  plan(): Promise<RunRequest>;
  /** A file name in the folder; absent until the planner's `starting` names it (a name taken only for a run that starts). */
  file?: string;
  /** What the run measures, as the planner's events carry it (the command words it). */
  about: About;
  /** Its sets, when the planner knows them (the progress names "set 2 of 12"). */
  sets?: number;
  /** What it should take, for the budget (0 before anything was timed). */
  estimateMs: number;
}

/** What a planner gives when it ends: its answer, its exit code when it was not stopped, the files it keeps in its folder. */
interface CampaignEnd<View> {
  view?: View;
  /** 0 answered, or the planner's own code (a claim broke, a bisect undecided); ignored when the budget or a stop ended it. */
  exit: number;
  /** Views written into the folder every time (a matrix's page and report), by kind: `page` (HTML) or `report` (markdown). */
  files?: readonly { path: string; kind: 'page' | 'report'; view: View }[];
}

/** What a planner tells the command beside the runs: a step decided, something skipped (the planner's own type). */
export type CampaignTell<Step> = (step: Step) => void;

export interface CampaignPlanner<Facts, About, Step, View> {
  /** How lines and the lock name the campaign: "bisect", "release matrix", "claims run". */
  readonly what: string;
  readonly dir: string;
  /** The lock's file in the folder. */
  readonly lockFile: string;
  /** The option that names another folder, said when the lock is held (default --dir). */
  readonly folderOption?: string;
  /** Plan only: the folder read, nothing locked, measured or written. */
  readonly planOnly?: boolean;
  /** The planner shares the budget out itself (claims: each run's added sets), so the loop starts every run it asks for. */
  readonly spendsBudget?: boolean;
  /** Opens its state (the folder locked, unless plan only): the runs saved before, and what the opening line says. */
  open(tell: CampaignTell<Step>, budget: CampaignBudget): Promise<{ saved: number; facts: Facts }>;
  /** The next run, or undefined once the plan is done. */
  next(): Promise<CampaignRun<About> | undefined>;
  /** The run passed the budget and starts now: the planner may name its file (and note it in its state). */
  starting?(run: CampaignRun<About>): void;
  /**
   * A run whose planning failed: true when the planner takes the failure as
   * that run's own (its suite could not be made ready; the planner says it
   * and keeps it for its answer), and the loop goes on with the next run;
   * absent or false, the campaign ends with the error.
   */
  unplanned?(run: CampaignRun<About>, error: unknown): boolean;
  /** What a finished run tells it (`ms`: how long it took; undefined when it was read back from the folder). */
  told(run: CampaignRun<About>, record: RunRecord, ms: number | undefined): Promise<void>;
  /** Its answer: `ending` says how the loop ended (a matrix draws what it has; a bisect stopped has none). */
  end(ending: CampaignEnding): Promise<CampaignEnd<View>>;
  /** Its state released, whatever happened. */
  close?(): void;
}

type CampaignEnding = 'done' | 'budget' | 'stopped';

/** What the loop tells the command, in order. */
export type CampaignEvent<Facts, About, Step, View> =
  | { kind: 'opened'; what: string; dir: string; saved: number; budgetMs: number; planOnly: boolean; facts: Facts }
  | { kind: 'run-started'; file: string; about: About; sets?: number; estimateMs: number; elapsedMs: number }
  | { kind: 'run-reused'; file: string; about: About }
  | { kind: 'set-started'; about: About; set: number; sets?: number; added: boolean; elapsedMs: number }
  | { kind: 'step'; step: Step; elapsedMs: number }
  | { kind: 'stopping'; cause: StopCause; dir: string }
  | { kind: 'budget-reached'; budgetMs: number; runs: number }
  | { kind: 'stopped'; dir: string; runs: number }
  | { kind: 'finished'; ending: CampaignEnding; dir: string; view?: View; files: NonNullable<CampaignEnd<View>['files']>; runs: number; saved: number; elapsedMs: number; exit: number };

export type CampaignListener<Facts, About, Step, View> = (event: CampaignEvent<Facts, About, Step, View>) => void;

export interface CampaignOptions {
  budgetMs: number;
  /** The stop's ports (tests). */
  stop?: StopPorts;
}

/**
 * Runs a campaign to its end: the folder locked, the planner's runs
 * measured (or read back) in turn within the budget and stoppable, each
 * saved as it goes; its exit code (the planner's; BUDGET_EXIT; a stopped run's, by its signal).
 */
export async function runCampaign<Facts, About, Step, View>(planner: CampaignPlanner<Facts, About, Step, View>, options: CampaignOptions, listen: CampaignListener<Facts, About, Step, View>): Promise<number> {
  const { dir } = planner;
  const started = Date.now();
  const elapsed = (): number => Date.now() - started;
  const unlock = planner.planOnly ? () => {} : openCampaignFolder(dir, planner.lockFile, planner.what, planner.folderOption);
  try {
    const budget = new CampaignBudget(options.budgetMs);
    const { saved, facts } = await planner.open((step) => listen({ kind: 'step', step, elapsedMs: elapsed() }), budget);
    listen({ kind: 'opened', what: planner.what, dir, saved, budgetMs: options.budgetMs, planOnly: planner.planOnly === true, facts });
    budget.restart();
    let runs = 0;
    let ending: CampaignEnding = 'done';
    let stoppedBy: StopSignal | undefined;
    if (!planner.planOnly) {
      const stop = listenForStop((cause) => listen({ kind: 'stopping', cause, dir }), options.stop);
      try {
        for (let run = await planner.next(); run; run = await planner.next()) {
          // A stop between runs: nothing more starts.
          if (stop.signal.aborted) {
            ending = 'stopped';
            break;
          }
          const kept = run.file !== undefined && existsSync(join(dir, run.file)) ? readCampaignRun(dir, run.file, planner.lockFile, (m) => new UsageError(m))?.run : undefined;
          if (run.file !== undefined && kept?.status === 'complete') {
            listen({ kind: 'run-reused', file: run.file, about: run.about });
            await planner.told(run, kept, undefined);
            continue;
          }
          if (!planner.spendsBudget && !budget.fits(run.estimateMs)) {
            ending = 'budget';
            break;
          }
          planner.starting?.(run);
          if (run.file === undefined) throw new Error(`${planner.what}: a run was started without a file`);
          const path = join(dir, run.file);
          let request: RunRequest;
          try {
            request = await run.plan();
          } catch (error) {
            if (planner.unplanned?.(run, error)) continue;
            throw error;
          }
          listen({ kind: 'run-started', file: run.file, about: run.about, ...(run.sets !== undefined ? { sets: run.sets } : {}), estimateMs: run.estimateMs, elapsedMs: elapsed() });
          let lastSet = -1;
          const t0 = Date.now();
          const { about } = run;
          const record = await runIntoFile(request, path, {
            signal: stop.signal,
            // A line as each set starts: how far a long run has gone, and which sets were added.
            onProgress: (e) => {
              if (e.round <= lastSet) return;
              lastSet = e.round;
              listen({ kind: 'set-started', about, set: e.round + 1, ...(e.adaptive ? {} : { sets: run.sets ?? e.rounds }), added: e.adaptive, elapsedMs: e.elapsedMs });
            },
          });
          runs++;
          if (record.status === 'interrupted') {
            ending = 'stopped';
            break;
          }
          await planner.told(run, record, Date.now() - t0);
        }
      } finally {
        stoppedBy = stop.received();
        stop.end();
      }
    }
    if (ending === 'budget') listen({ kind: 'budget-reached', budgetMs: options.budgetMs, runs: saved + runs });
    if (ending === 'stopped') listen({ kind: 'stopped', dir, runs: saved + runs });
    const end = await planner.end(ending);
    const exit = ending === 'budget' ? BUDGET_EXIT : ending === 'stopped' ? SIGNAL_EXIT[stoppedBy ?? 'SIGINT'] : end.exit;
    listen({ kind: 'finished', ending, dir, ...(end.view !== undefined ? { view: end.view } : {}), files: end.files ?? [], runs, saved, elapsedMs: elapsed(), exit });
    return exit;
  } finally {
    planner.close?.();
    unlock();
  }
}
