/**
 * The campaign's state model on a policy of its own: a read-only open makes
 * and locks nothing, a state refused by the policy's resume leaves the folder
 * unlocked, and a question asked differently is refused naming each field
 * as the policy writes it. The bisect's and the release matrix's policies
 * are tested with their packages.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCampaignState, type CampaignStatePolicy } from '../src/index.ts';

interface Identity {
  range: string;
  filter: string;
}
interface State {
  schema: 'toy';
  version: 1;
  identity: Identity;
  machine: string;
  done: string[];
}

class Refused extends Error {}

const POLICY: CampaignStatePolicy<Identity, State> = {
  what: 'toy campaign',
  stateFile: 'toy.state',
  lockFile: 'toy.lock',
  schema: 'toy',
  version: 1,
  restart: 'remove it',
  check: (json) => (Array.isArray((json as State).done) ? { state: json as State } : { field: 'done', why: 'expected a list' }),
  begin: (identity, machine) => ({ schema: 'toy', version: 1, identity, machine, done: [] }),
  resume: (state, machine) => {
    if (state.machine !== machine) throw new Refused(`measured on ${state.machine}`);
  },
  fieldText: (key, value) => (key === 'filter' && value === '' ? 'no --filter' : String(value)),
  refused: (message) => new Refused(message),
};

const IDENTITY: Identity = { range: 'a..b', filter: '' };
let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'rtbench-campaign-state-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("a campaign's state", () => {
  it('is saved and continued under its lock; a read-only open makes and locks nothing', () => {
    const dir = join(root, 'c');
    const plan = openCampaignState(dir, POLICY, IDENTITY, { machine: 'm', lock: false });
    expect(plan.state.done).toEqual([]);
    expect(existsSync(dir)).toBe(false);
    const first = openCampaignState(dir, POLICY, IDENTITY, { machine: 'm' });
    expect(existsSync(join(dir, 'toy.lock'))).toBe(true);
    first.state.done.push('step 1');
    first.save();
    first.close();
    expect(existsSync(join(dir, 'toy.lock'))).toBe(false);
    expect(JSON.parse(readFileSync(join(dir, 'toy.state'), 'utf8')).done).toEqual(['step 1']);
    const again = openCampaignState(dir, POLICY, IDENTITY, { machine: 'm' });
    again.close();
    expect(again.state.done).toEqual(['step 1']);
  });

  it('refuses another question naming each field as the policy writes it, and a resume the policy refuses, leaving the folder unlocked', () => {
    const dir = join(root, 'c');
    const saved = openCampaignState(dir, POLICY, IDENTITY, { machine: 'm' });
    saved.save();
    saved.close();
    expect(() => openCampaignState(dir, POLICY, { range: 'a..c', filter: 'x' }, { machine: 'm' })).toThrow(
      new Refused(`${dir} holds a toy campaign asked differently (range: a..b there, a..c now; filter: no --filter there, x now); name another --dir or remove that one`),
    );
    expect(() => openCampaignState(dir, POLICY, IDENTITY, { machine: 'other' })).toThrow('measured on m');
    expect(existsSync(join(dir, 'toy.lock'))).toBe(false);
  });
});
