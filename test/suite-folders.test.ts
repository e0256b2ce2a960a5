/** A suite names files of its own folder and of bench/shared/ only (scripts/checks/suite-folders.ts, read by the structure targets). */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchFolderOf, reachesIntoSuite } from '../scripts/checks/suite-folders.ts';

const bench = '/repo/bench';
const inSuite = join(bench, 'http-hello', 'src', 'relay', 'node.ts');

describe('which bench/ folder a path reaches', () => {
  it('names the folder a path lies in, and none outside bench/', () => {
    expect(benchFolderOf(bench, inSuite)).toBe('http-hello');
    expect(benchFolderOf(bench, '/repo/packages/core/src/index.ts')).toBeUndefined();
    expect(benchFolderOf(bench, '/repo/bench-other/x.ts')).toBeUndefined();
  });

  it("a relative path into another suite's folder is reaching in; its own folder, bench/shared/ and a package are not", () => {
    expect(reachesIntoSuite(bench, inSuite, '../../../relay-served/mix.ts')).toBe('relay-served');
    expect(reachesIntoSuite(bench, inSuite, '../serve-deno.ts')).toBeUndefined();
    expect(reachesIntoSuite(bench, inSuite, '../../../shared/relay/json-handler.ts')).toBeUndefined();
    expect(reachesIntoSuite(bench, inSuite, '@rtbench/core')).toBeUndefined();
    expect(reachesIntoSuite(bench, inSuite, 'node:fs')).toBeUndefined();
  });

  it("another suite's package name is reaching in, and bench/shared/ may reach into no suite", () => {
    expect(reachesIntoSuite(bench, inSuite, '@rtbench/bench-request-relay')).toBe('request-relay');
    expect(reachesIntoSuite(bench, inSuite, '@rtbench/bench-shared')).toBeUndefined();
    expect(reachesIntoSuite(bench, join(bench, 'shared', 'relay', 'relay.ts'), '../../request-relay/index.ts')).toBe('request-relay');
  });
});
