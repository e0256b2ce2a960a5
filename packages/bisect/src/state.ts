/**
 * A bisect's folder: every measurement is a saved run (`<n>-<older>-vs-<newer>.json`,
 * read by `report` and `history`), and `bisect.state` (not .json, so a history
 * of the folder reads only runs) lists the measurements in the order they were
 * asked, with what each gave. The search is deterministic given those
 * outcomes, so a bisect run again with the same arguments replays the saved
 * ones and measures only what is left: that is how an interrupted bisect (or
 * one that reached its --budget) continues.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { StepOutcome, StepRequest } from './types.ts';
import { writeFileAtomically } from '@rtbench/host';
import { campaignMachine, openCampaignFolder, readRegularFile } from '@rtbench/run';
import { UsageError } from '@rtbench/suite-loader';

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

/** The folder's saved bisect, or a new one; refused when it holds another question, or steps another machine measured. */
function readState(dir: string, identity: BisectIdentity, machine: string): BisectState {
  const file = join(dir, STATE_FILE);
  if (!existsSync(file)) return { schema: 'rtbench.bisect', version: 1, identity, installed: [], steps: [], machine };
  let state: BisectState;
  try {
    state = JSON.parse(readRegularFile(file)) as BisectState;
  } catch (error) {
    throw new UsageError(`${file} is not readable (${(error as Error).message.split('\n')[0]}); remove it to start the bisect again`);
  }
  if (state.schema !== 'rtbench.bisect' || state.version !== 1) throw new UsageError(`${file} is not an rtbench bisect state`);
  const differ = (Object.keys(identity) as (keyof BisectIdentity)[]).filter((k) => state.identity[k] !== identity[k]);
  if (differ.length) {
    throw new UsageError(`${dir} holds a bisect asked differently (${differ.map((k) => `${k}: ${state.identity[k]} there, ${identity[k]} now`).join('; ')}); name another --dir or remove that one`);
  }
  if (state.machine !== undefined && state.machine !== machine) {
    throw new UsageError(`${dir} holds a bisect measured on another machine (${state.machine}; this is ${machine}): its steps and this machine's would not make one comparison; name another --dir or remove that one`);
  }
  return state;
}

function keyOf(s: Pick<SavedStep, 'older' | 'newer' | 'purpose' | 'attempt'>): string {
  return `${s.older}\u0000${s.newer}\u0000${s.purpose}\u0000${s.attempt}`;
}

export class BisectFolder {
  private readonly byKey: Map<string, SavedStep>;

  private constructor(
    readonly dir: string,
    readonly state: BisectState,
    /** Releases the folder's lock. */
    readonly close: () => void,
  ) {
    this.byKey = new Map(state.steps.map((s) => [keyOf(s), s]));
  }

  /** The folder's bisect, continued when its identity matches, else a new one; a folder holding another bisect is refused. */
  static open(dir: string, identity: BisectIdentity, machine = campaignMachine()): BisectFolder {
    const release = openCampaignFolder(dir, LOCK_FILE, 'bisect');
    try {
      return new BisectFolder(dir, readState(dir, identity, machine), release);
    } catch (error) {
      release();
      throw error;
    }
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

  save(): void {
    writeFileAtomically(join(this.dir, STATE_FILE), `${JSON.stringify(this.state, null, 1)}\n`);
  }
}
