/**
 * A campaign's events (@rtbench/campaign campaign-loop.ts) in words, for every
 * planner in one place: what each opening, run, set, step, stop and ending
 * says, and in which tone (campaignSay colours it). A planner without words
 * of its own is said in the general ones.
 */
import type { BisectFacts, BisectStep, StepAbout } from '@rtbench/bisect';
import type { ClaimsFacts, ClaimsRunAbout, ClaimsStep, FewSets } from '@rtbench/claims';
import type { MatrixFacts, WindowAbout } from '@rtbench/releases';
import { bisectStepLine, budgetReachedLine, counted, firstLine, formatClock, printable } from '@rtbench/report';
import { type CampaignEvent, type LineTone } from '@rtbench/campaign';
import { stopLine } from '@rtbench/run';

/** One line: its text, its tone, and a quiet aside after it (a clock, an ETA). */
export interface Line {
  text: string;
  tone?: LineTone;
  aside?: string;
}

type Event<F, A, S> = CampaignEvent<F, A, S, unknown>;
type Of<F, A, S, K extends Event<F, A, S>['kind']> = Extract<Event<F, A, S>, { kind: K }>;

/** What a planner's events say; each part left out takes the general words. */
export interface CampaignWords<F, A, S> {
  opened?(e: Of<F, A, S, 'opened'>): Line[];
  runStarted?(e: Of<F, A, S, 'run-started'>): Line[];
  setStarted?(e: Of<F, A, S, 'set-started'>): Line[];
  step?(e: Of<F, A, S, 'step'>): Line[];
  /** What a stop does, after its cause. */
  doing?: string;
  stopped?(e: Of<F, A, S, 'stopped'>): Line[];
  /** What the budget line counts ("measurement"); none: no count. */
  counts?: string;
  finished?(e: Of<F, A, S, 'finished'>): Line[];
}

const note = (text: string, aside?: string): Line => ({ text, tone: 'note', ...(aside ? { aside } : {}) });
const setLine =
  (indent: string) =>
  (e: { set: number; sets?: number; added: boolean; elapsedMs: number }): Line[] => {
    const of = e.added ? ' (added: a check is undecided)' : e.sets !== undefined ? ` of ${e.sets}` : '';
    return [note(`${indent}set ${e.set}${of} [${formatClock(e.elapsedMs)}]`)];
  };

/** The general words: any planner's events. */
export function eventLines<F, A, S>(e: Event<F, A, S>, words: CampaignWords<F, A, S> = {}): Line[] {
  switch (e.kind) {
    case 'opened':
      return words.opened?.(e) ?? [{
        text: `${e.what}: budget ${formatClock(e.budgetMs)}`,
        tone: 'heading',
      }, note(`folder ${e.dir}${e.saved ? ` (continuing: ${counted(e.saved, 'run')} saved)` : ''}`)];
    case 'run-started':
      return words.runStarted?.(e) ?? [
        note(`  measuring ${e.file}${e.sets !== undefined ? `: ${e.sets} sets` : ''}${e.estimateMs ? `, ~${formatClock(e.estimateMs)}` : ''}`),
      ];
    case 'run-reused':
      return [];
    case 'set-started':
      return words.setStarted?.(e) ?? setLine('    ')(e);
    case 'step':
      return words.step?.(e) ?? [];
    case 'stopping':
      return [{
        text: `\n${stopLine(e.cause, words.doing ?? 'stopping the current run; the runs measured are saved, run the same command to continue')}`,
        tone: 'warning',
      }];
    case 'budget-reached':
      return [{ text: budgetReachedLine(e.budgetMs, words.counts ? counted(e.runs, words.counts) : undefined), tone: 'ending' }];
    case 'stopped':
      return words.stopped?.(e) ?? [];
    case 'finished':
      return words.finished?.(e) ?? [note(`${counted(e.runs, 'run')} measured in ${e.dir} in ${formatClock(e.elapsedMs)}${e.saved ? ' this time' : ''}`)];
  }
}

/** Where a bisect's installs go: a runtime's releases into the runtime cache (removed at the end with --clean), a package's into the library cache. */
function installsWhere(f: BisectFacts): string {
  if (!f.perRelease) return ' into the library cache';
  return ` (${f.perRelease} each) into the runtime cache${f.clean ? ', removed at the end (--clean)' : ''}`;
}

export const BISECT_WORDS: CampaignWords<BisectFacts, StepAbout, BisectStep> = {
  opened: ({ facts: f, dir, saved, budgetMs }) => {
    const how = f.measured ? `${f.measured.name}${f.measured.needs ? ` (${f.measured.needs})` : ''}` : `wall time (${f.timing})`;
    return [
      {
        text: `bisect ${f.runtime}@${f.first}..${f.runtime}@${f.last}: ${f.releases} releases, ${f.suite} / ${f.caseId}, ${how}, threshold ` +
          `${+(f.threshold * 100).toFixed(2)}%, ${+(f.confidence * 100).toFixed(2)}% intervals, ` +
          `steps of ${f.minRounds}–${f.maxRounds} paired rounds, budget ${formatClock(budgetMs)}`,
        tone: 'heading',
      },
      note(
        `folder ${dir}${saved ? ` (continuing: ${saved} measurements saved)` : ''}; ` +
          `a single change installs about ${f.installs} releases${installsWhere(f)}`,
      ),
    ];
  },
  runStarted: ({ about: a, estimateMs }) => [note(`  measuring ${a.runtime}@${a.older} vs ${a.runtime}@${a.newer}: ${a.rounds} ` +
    `rounds${a.attempt ? ` (repeat ${a.attempt}: not yet decided)` : ''}${estimateMs ? `, ~${formatClock(estimateMs)}` : ''}`)],
  step: ({ step: s, elapsedMs }) => {
    if (s.kind === 'skipped') return [{ text: `  ${s.runtime}@${s.tag} cannot run the case: ${s.reason}; skipped`, tone: 'warning' }];
    if (s.kind === 'noted') return [{ text: `  ${s.file}: ${firstLine(printable(s.note, { oneLine: true }), 400)}`, tone: 'warning' }];
    if (s.kind === 'cleaned') {
      const removed = s.removed ? [note(`--clean: removed ${counted(s.removed, 'release')} this bisect installed`)] : [];
      // The paths come from a state file a user may have edited: shown printable, on one line, cut.
      const shown = firstLine(printable(s.refused[0] ?? '', { oneLine: true }), 200);
      const left = s.refused.length ? [{
        text: `--clean: left ${counted(s.refused.length, 'path')} the state lists outside the runtime ` +
          `cache (${shown}${s.refused.length > 1 ? ', …' : ''}): it removes only releases in the cache`,
        tone: 'warning' as const,
      }] : [];
      return [...removed, ...left];
    }
    const eta = s.perRoundMs !== undefined ? `; ETA ~${formatClock(s.perRoundMs * s.minRounds * 1.5 * s.stepsLeft)} ` +
      `for ~${counted(s.stepsLeft, 'more comparison')}` : '';
    return [{ text: bisectStepLine(s.step, { runtime: s.runtime, unit: s.unit }), aside: `  [${formatClock(elapsedMs)}${eta}]` }];
  },
  doing: 'stopping the current step; the steps measured are saved, run the same command to continue',
  counts: 'measurement',
  finished: (e) => (e.ending === 'done' ? [note(`${e.saved + e.runs} measurements saved in ${e.dir} (rtbench history ${e.dir}; ` +
    `rtbench report <file>) in ${formatClock(e.elapsedMs)}${e.saved ? ' this time' : ''}`)] : []),
};

/** What a release matrix has still to measure, against its budget. */
function matrixTotal(total: MatrixFacts['total'], budgetMs: number): string {
  if (!total.sets) return 'nothing new to measure';
  const over = total.ms > budgetMs ? ` (more than --budget ${formatClock(budgetMs)}: it stops there, and the same command continues)` : '';
  return `about ${formatClock(total.ms)} for ${total.processes} processes${over}`;
}

export const MATRIX_WORDS: CampaignWords<MatrixFacts, WindowAbout, never> = {
  opened: ({ facts: f, dir, budgetMs }) => [
    {
      text: `releases: ${counted(f.tracks, 'track')}${f.shard ? ` (shard ${f.shard.index}/${f.shard.count} of ${f.asked})` : ''}, sets of ` +
        `${f.sets} per window (${f.setsPerProcess} per process), threshold ${+(f.threshold * 100).toFixed(2)}%, budget ${formatClock(budgetMs)}`,
      tone: 'heading',
    },
    ...(f.setAside.length ? [{
      text: `set aside, no longer asked (kept in the folder; asked again, continued): ${f.setAside.join(', ')}`,
      tone: 'warning' as const,
    }] : []),
    ...f.skipped.map((line) => ({ text: `  ${line}`, tone: 'warning' as const })),
    ...f.plans.map((p) => ({ text: `  ${p.key}: ${p.releases} releases × ${counted(p.cases, 'case')}; to measure: ` +
      `${counted(p.windows, 'window')}, ${p.sets} sets, ${p.processes} processes, ~${formatClock(p.estimateMs)}` })),
    note(`folder ${dir}; ${matrixTotal(f.total, budgetMs)}`),
  ],
  runStarted: ({ about: a, estimateMs }) => [note(`  measuring ${a.track}: ${a.releases.join(', ')}: ${a.sets} ` +
    `sets, ${a.processes} processes, ~${formatClock(estimateMs)}`)],
  doing: 'stopping the current window; the sets measured are saved, run the same command to continue',
  finished: (e) => (e.view ? [note(`${formatClock(e.elapsedMs)} this time`)] : []),
};

/** What the first sets of a claims run mean, said before it runs. */
export function fewSetsLine(few: FewSets): Line {
  const { rounds, maxRounds, needs } = few;
  if (few.undecidable) return {
    text: `--max-rounds ${maxRounds}: no interval can be decided from ${counted(maxRounds, 'set')} ` +
      `(it needs ${needs} independent process pairs); every claim will stay undecided`,
    tone: 'warning',
  };
  return note(`--rounds ${rounds}: no interval can be decided from ${counted(rounds, 'set')} (it needs ${needs} independent process pairs), so ` +
    `each case gets sets added while a check on it is undecided: ${needs} at least, up to --max-rounds ${maxRounds}, as --max-time allows`);
}

export const CLAIMS_WORDS: CampaignWords<ClaimsFacts, ClaimsRunAbout, ClaimsStep> = {
  opened: ({ facts, dir, saved }) => [...(facts.few ? [fewSetsLine(facts.few)] : []), ...(saved ? [note(`folder ${dir} (continuing: ` +
    `${counted(saved, 'run')} of ${facts.runs} saved)`)] : [])],
  // "claims-fixture: 2 cases × node (26.1.0), deno (2.9.0) × 6–16 sets".
  runStarted: ({ about: a }) => [{
    text: `${a.suite}: ${counted(a.cases, 'case')} × ${a.variants.map((v) => `${v.id} (${v.version ?? 'unavailable'})`).join(', ')} ` +
      `× ${a.maxRounds !== undefined ? `${a.rounds}–${a.maxRounds}` : a.rounds} sets`,
    tone: 'heading',
  }],
  setStarted: setLine('  '),
  step: ({ step: s }) => [{
    text: `${s.suite}: ${counted(s.checks, 'check')} not made, the other runs go on: ${firstLine(printable(s.reason, { oneLine: true }), 400)}`,
    tone: 'warning',
  }],
  doing: 'stopping the current run; the runs so far are saved',
  stopped: (e) => [{ text: `stopped: the runs so far are in ${e.dir}; --save ${e.dir} continues them`, tone: 'ending' }],
  finished: (e) => (e.view ? [note(`saved ${counted(e.saved + e.runs, 'run')} in ${e.dir} (rtbench report ${e.dir})`)] : []),
};
