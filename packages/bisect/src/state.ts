/**
 * A bisect's folder: every measurement is a saved run (`<n>-<older>-vs-<newer>.json`,
 * read by `report` and `history`), and `bisect.state` (not .json, so a history
 * of the folder reads only runs) lists the measurements in the order they were
 * asked, with what each gave. The search is deterministic given those
 * outcomes, so a bisect run again with the same arguments replays the saved
 * ones and measures only what is left: that is how an interrupted bisect (or
 * one that reached its --budget) continues. The state is read, checked,
 * locked and saved by the campaign's state model (@rtbench/run
 * campaign-state.ts) under the bisect's policy below.
 */
import { join } from 'node:path';
import type { StepOutcome, StepRequest } from './types.ts';
import { campaignMachine, openCampaignState, type CampaignStatePolicy, type OpenCampaign } from '@rtbench/campaign';
import { UsageError } from '@rtbench/core/usage-error';

/** What must match for saved steps to be reused: the same question, asked the same way. */
export interface BisectIdentity {
  range: string;
  suite: string;
  caseId: string;
  /** time, or the measurer --measure named. */
  measure: string;
  threshold: number;
  timePerRoundMs: number;
  warmupMs: number;
  /** --fixed-warmup: warmupMs was the whole warmup (absent in states saved before it, and when not asked). */
  fixedWarmup?: true;
  minRounds: number;
  maxRounds: number;
}

export interface SavedStep {
  older: string;
  newer: string;
  purpose: StepRequest['purpose'];
  attempt: number;
  rounds: number;
  outcome: StepOutcome;
  /** The run file, in the folder (absent when a release could not run before anything was measured). */
  run?: string;
  durationMs: number;
}

export interface BisectState {
  schema: 'rtbench.bisect';
  version: 1;
  identity: BisectIdentity;
  /** Cache entries (<package>@<version>) this bisect installed: what --clean removes. */
  installed: string[];
  /** The machine that measured the steps (campaignMachine()); absent in states of an older rtbench. */
  machine?: string;
  steps: SavedStep[];
}

export const STATE_FILE = 'bisect.state';
/** Held while a bisect works in the folder: two at once would number and overwrite each other's runs. */
export const LOCK_FILE = 'bisect.lock';

/**
 * A bisect's policy as a campaign's state: its steps and installs stored
 * under its question; resumed only on the machine that measured them (a
 * folder copied, or kept in a repository, would mix two machines' steps in
 * one comparison).
 */
const BISECT_STATE: CampaignStatePolicy<BisectIdentity, BisectState> = {
  what: 'bisect',
  stateFile: STATE_FILE,
  lockFile: LOCK_FILE,
  schema: 'rtbench.bisect',
  version: 1,
  restart: 'remove it to start the bisect again',
  check: (json) => {
    const s = json as Partial<Record<keyof BisectState, unknown>>;
    if (s.version !== 1) return { field: 'version', why: `expected 1, got ${JSON.stringify(s.version) ?? 'nothing'}` };
    if (typeof s.identity !== 'object' || s.identity === null) return { field: 'identity', why: 'expected an object' };
    for (const list of ['steps', 'installed'] as const) if (!Array.isArray(s[list])) return { field: list, why: 'expected a list' };
    return { state: json as BisectState };
  },
  begin: (identity, machine) => ({ schema: 'rtbench.bisect', version: 1, identity, installed: [], steps: [], machine }),
  resume: (state, machine, dir) => {
    if (state.machine !== undefined && state.machine !== machine) {
      throw new UsageError(`${dir} holds a bisect measured on another machine (${state.machine}; this is ${machine}): its steps and this machine's would not make one comparison; name another --dir or remove that one`);
    }
  },
  refused: (message) => new UsageError(message),
};

function keyOf(s: Pick<SavedStep, 'older' | 'newer' | 'purpose' | 'attempt'>): string {
  return `${s.older}\u0000${s.newer}\u0000${s.purpose}\u0000${s.attempt}`;
}

export class BisectFolder {
  private readonly byKey: Map<string, SavedStep>;

  readonly dir: string;
  readonly state: BisectState;
  /** Writes the state into the folder. */
  readonly save: () => void;
  /** Releases the folder's lock. */
  readonly close: () => void;

  private constructor(campaign: OpenCampaign<BisectState>) {
    ({ dir: this.dir, state: this.state, save: this.save, close: this.close } = campaign);
    this.byKey = new Map(this.state.steps.map((s) => [keyOf(s), s]));
  }

  /** The folder's bisect, continued when its identity matches, else a new one; a folder holding another bisect is refused. */
  static open(dir: string, identity: BisectIdentity, machine = campaignMachine(), options: { lockHeld?: boolean } = {}): BisectFolder {
    return new BisectFolder(openCampaignState(dir, BISECT_STATE, identity, { machine, lock: options.lockHeld !== true }));
  }

  saved(request: StepRequest, older: string, newer: string): SavedStep | undefined {
    const s = this.byKey.get(keyOf({ older, newer, purpose: request.purpose, attempt: request.attempt }));
    return s && s.rounds === request.rounds ? s : undefined;
  }

  /** The run file for the next measurement. */
  runPath(older: string, newer: string): string {
    const n = String(this.state.steps.length + 1).padStart(2, '0');
    return join(this.dir, `${n}-${older}-vs-${newer}.json`.replace(/[^\w@.+-]/g, '_'));
  }

  add(step: SavedStep): void {
    this.state.steps.push(step);
    this.byKey.set(keyOf(step), step);
    this.save();
  }

  noteInstalled(entry: string): void {
    if (!this.state.installed.includes(entry)) this.state.installed.push(entry);
    this.save();
  }
}
