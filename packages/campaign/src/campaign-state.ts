/**
 * A campaign's saved state, the one model its planners share: a file in the
 * campaign's folder (not .json, so a history of the folder reads only runs)
 * that names the question asked (its identity) and what was measured, so
 * the same command run again continues where the last one stopped. Here is
 * what every planner does with it: the state read as untrusted input (a
 * regular file; its JSON, its schema and version checked before a field is
 * used; each refusal one line naming the file), its identity compared field
 * by field with the question asked now, the folder locked while a campaign
 * works in it, the state written atomically. A planner's policy says what
 * it stores and how it resumes: its file names, its shape, a new state, and
 * what a saved one must agree on beyond its identity (the machine, a shard).
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomically } from '@rtbench/host/files';
import { campaignMachine, openCampaignFolder } from './campaign.ts';
import { readRegularFile } from '@rtbench/saved-runs';

/** What every campaign's state holds: its schema and version, and the question it answers. */
export interface SavedCampaign<I> {
  schema: string;
  version: number;
  identity: I;
}

/** A state as saved, checked against its planner's shape: the state, or the first damaged field and why. */
type CheckedState<S> = { state: S } | { field: string; why: string };

/** What a planner stores and how it resumes. */
export interface CampaignStatePolicy<I extends object, S extends SavedCampaign<I>> {
  /** How lines name the campaign: "bisect", "release matrix". */
  what: string;
  /** Its state's file and its lock's, in the folder. */
  stateFile: string;
  lockFile: string;
  /** The schema name its state carries, and the newest version this rtbench reads. */
  schema: string;
  version: number;
  /** What to do with a state that cannot be read: "remove it to start the bisect again". */
  restart: string;
  /** Its shape checked, once its schema is known and its version is not newer. */
  check(json: unknown): CheckedState<S>;
  /** A new state for this question, begun on this machine. */
  begin(identity: I, machine: string): S;
  /** A saved state of the same question, continued on this machine: refused (measured elsewhere, another shard) or brought up to date. */
  resume?(state: S, machine: string, dir: string): void;
  /** An identity's field as a person reads it (default: as it is). */
  fieldText?(key: keyof I, value: I[keyof I]): string;
  /** The planner's one-line refusal (the CLI prints it without a trace). */
  refused(message: string): Error;
}

/** A state's file, or undefined when the folder holds none; refused in one line when it is no state of this planner's or is damaged. */
export function readCampaignState<I extends object, S extends SavedCampaign<I>>(dir: string, policy: CampaignStatePolicy<I, S>): S | undefined {
  const file = join(dir, policy.stateFile);
  if (!existsSync(file)) return undefined;
  if (statSync(file).isDirectory()) throw policy.refused(`${file} is a directory, not a ${policy.what}'s state`);
  const text = readRegularFile(file);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw policy.refused(`${file} is not readable (${text.trim() === '' ? 'it is empty' : (error as Error).message.split('\n')[0]}); ${policy.restart}`);
  }
  const { schema, version } = (typeof json === 'object' && json !== null ? json : {}) as { schema?: unknown; version?: unknown };
  if (schema !== policy.schema) throw policy.refused(`${file} is not an rtbench ${policy.what}'s state (its "schema" is ${JSON.stringify(schema) ?? 'missing'})`);
  if (typeof version === 'number' && Number.isInteger(version) && version > policy.version) {
    throw policy.refused(`${file} has state version ${version}, from a newer rtbench; this one reads version ${policy.version}`);
  }
  const checked = policy.check(json);
  if ('state' in checked) return checked.state;
  throw policy.refused(`${file} is damaged at ${checked.field} (${checked.why}); ${policy.restart}`);
}

/** The fields in which two identities differ, said as "sets: 12 there, 20 now". */
export function identityDifference<I extends object>(there: I, now: I, text: (key: keyof I, value: I[keyof I]) => string = (_, value) => String(value), words = { there: 'there', now: 'now' }): string[] {
  return (Object.keys(now) as (keyof I)[]).filter((k) => there[k] !== now[k]).map((k) => `${k as string}: ${text(k, there[k])} ${words.there}, ${text(k, now[k])} ${words.now}`);
}

/**
 * The folder's campaign, continued when it asked the same question (and its
 * policy's resume agrees), else a new one; a folder holding another question
 * is refused, naming what differs. Reads only: nothing is made or locked.
 */
export function resumeCampaignState<I extends object, S extends SavedCampaign<I>>(dir: string, policy: CampaignStatePolicy<I, S>, identity: I, machine: string): S {
  const state = readCampaignState(dir, policy);
  if (!state) return policy.begin(identity, machine);
  const differ = identityDifference(state.identity, identity, policy.fieldText);
  if (differ.length) throw policy.refused(`${dir} holds a ${policy.what} asked differently (${differ.join('; ')}); name another --dir or remove that one`);
  policy.resume?.(state, machine, dir);
  return state;
}

/** Writes a campaign's state into its folder, whole or not at all. */
export function saveCampaignState<I extends object, S extends SavedCampaign<I>>(dir: string, policy: CampaignStatePolicy<I, S>, state: S): void {
  writeFileAtomically(join(dir, policy.stateFile), `${JSON.stringify(state, null, 1)}\n`);
}

/** A campaign's folder held open: its state (continued or begun), saved on demand, and the lock released by `close`. */
export interface OpenCampaign<S> {
  readonly dir: string;
  readonly state: S;
  save(): void;
  close(): void;
}

/**
 * Opens a campaign's folder and its state: the folder checked, made and
 * locked (unless `lock` is false: a plan that only reads it, or the
 * campaign loop that holds the lock), then its state continued or begun; the
 * lock is released if the state is refused.
 */
export function openCampaignState<I extends object, S extends SavedCampaign<I>>(dir: string, policy: CampaignStatePolicy<I, S>, identity: I, options: { machine?: string; lock?: boolean } = {}): OpenCampaign<S> {
  const close = options.lock === false ? () => {} : openCampaignFolder(dir, policy.lockFile, policy.what);
  try {
    const state = resumeCampaignState(dir, policy, identity, options.machine ?? campaignMachine());
    return { dir, state, save: () => saveCampaignState(dir, policy, state), close };
  } catch (error) {
    close();
    throw error;
  }
}
