/** The schedule a brought file implies when --schedule is not given: Node core files give each configuration processes of its own. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { broughtSchedule, locateBroughtFile } from '../packages/cli/src/brought-file.ts';

describe('broughtSchedule', () => {
  it('runs a Node core file lockstep-per-case, and leaves every other file and suite to the default', () => {
    expect(broughtSchedule(locateBroughtFile(join('examples', 'node-core', 'benchmark', 'buffers', 'buffer-read-write.js')).entry)).toBe('lockstep-per-case');
    expect(broughtSchedule(locateBroughtFile(join('examples', 'mitata-json.mjs')).entry)).toBeUndefined();
    expect(broughtSchedule(locateBroughtFile(join('examples', 'node-bench-json.mjs')).entry)).toBeUndefined();
    expect(broughtSchedule('bench/json-reviver/suite.ts')).toBeUndefined();
  });
});
