/**
 * The files a campaign's state names are read only from inside its folder,
 * links resolved, and a run among them as a saved run: a name that leads
 * elsewhere is refused in one line before a byte of it is read.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { syntheticRun, writeRun } from '../../../test/compare-synthetic.ts';
import { campaignFilePath, readCampaignRun } from '../src/campaign-files.ts';

class Refused extends Error {}
const refused = (message: string): Error => new Refused(message);

let root: string;
let dir: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'rtbench-campaign-files-'));
  dir = join(root, 'campaign');
  mkdirSync(join(dir, 'sub'), { recursive: true });
  writeFileSync(join(root, 'secret.json'), '{}');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("a campaign state's file names", () => {
  it('give the path in the folder of a file there or below, whether or not it exists yet', () => {
    expect(campaignFilePath(dir, 'run.json', 'x.state', refused)).toBe(join(dir, 'run.json'));
    expect(campaignFilePath(dir, 'sub/run.json', 'x.state', refused)).toBe(join(dir, 'sub', 'run.json'));
    // An absolute name is read as one in the folder, as join() reads it: never the file it names elsewhere.
    expect(campaignFilePath(dir, join(root, 'secret.json'), 'x.state', refused)).toBe(join(dir, root, 'secret.json'));
    // A name that steps out and back in stays inside.
    expect(campaignFilePath(dir, 'sub/../run.json', 'x.state', refused)).toBe(join(dir, 'run.json'));
    // A link inside that leads inside is followed.
    writeFileSync(join(dir, 'sub', 'real.json'), '{}');
    symlinkSync(join(dir, 'sub', 'real.json'), join(dir, 'alias.json'));
    expect(campaignFilePath(dir, 'alias.json', 'x.state', refused)).toBe(join(dir, 'alias.json'));
  });

  it('refuse, in one line naming the state, the name and the folder, any that leads outside or is the folder itself', () => {
    symlinkSync(join(root, 'secret.json'), join(dir, 'link.json'));
    symlinkSync(root, join(dir, 'up'));
    for (const name of ['../secret.json', 'sub/../../secret.json', 'link.json', 'up/secret.json', '', '.', '..']) {
      let error: unknown;
      try {
        campaignFilePath(dir, name, 'x.state', refused);
      } catch (e) {
        error = e;
      }
      expect(error, JSON.stringify(name)).toBeInstanceOf(Refused);
      expect((error as Error).message).toBe(`${join(dir, 'x.state')} names ${JSON.stringify(name)}, which leads outside the folder ${dir}; it reads only the files in its folder`);
    }
  });
});

describe('a run the state names', () => {
  it('is read as a saved run from inside the folder; one not there yet is undefined', () => {
    const run = syntheticRun({ cases: [{ id: 'a', ns: 100 }], arms: [{ id: 'node', factor: 1 }], rounds: 2 });
    writeRun(join(dir, '01.json'), run);
    const read = readCampaignRun(dir, '01.json', 'x.state', refused);
    expect(read?.file).toBe(join(dir, '01.json'));
    expect(read?.run.results.map((r) => r.caseId)).toEqual(['a']);
    expect(readCampaignRun(dir, '02.json', 'x.state', refused)).toBeUndefined();
  });

  it('is refused outside the folder before it is read, even where a run is there', () => {
    writeRun(join(root, 'forged.json'), syntheticRun({ cases: [{ id: 'a', ns: 100 }], arms: [{ id: 'node', factor: 1 }], rounds: 2 }));
    expect(() => readCampaignRun(dir, '../forged.json', 'x.state', refused)).toThrow(Refused);
  });
});
