/**
 * hostSuiteCode: what a host-timed suite runs, by content, per runtime — the
 * suiteCode `rtbench merge` compares between shards. (esbuild runs as a
 * process: not in test:fast.)
 */
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RuntimeKind } from '@rtbench/core/suite';
import type { BundleTarget } from '@rtbench/host';
import type { RuntimePlugin } from '@rtbench/runtime-kit';
import { hostSuiteCode, LOAD_PROFILES, type HostMeasurement } from '../src/index.ts';

const NODE: BundleTarget = { entry: '', platform: 'node', conditions: ['node'] };
const WORKER: BundleTarget = { entry: '', platform: 'neutral', conditions: ['workerd', 'worker', 'browser'] };
const TARGETS = new Map<RuntimeKind, Pick<RuntimePlugin, 'bundle' | 'programs' | 'displayName'>>([
  ['node', { bundle: NODE, displayName: 'a process host', programs: { kind: 'process' } as RuntimePlugin['programs'] }],
  ['workerd', { bundle: WORKER, displayName: 'a module host', programs: { kind: 'server' } as RuntimePlugin['programs'] }],
]);

/** A suite folder: its definition, a node server and a workerd server that share a module, and a start-up program. */
function suiteFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rtbench-suite-code-'));
  writeFileSync(join(dir, 'index.ts'), "export const ROUTE = '/hello';\n");
  writeFileSync(join(dir, 'shared.ts'), "export const answer = 'hello';\n");
  writeFileSync(join(dir, 'node-server.ts'), "import { answer } from './shared.ts';\nconsole.log('listening 0', answer);\n");
  writeFileSync(join(dir, 'workerd-server.ts'), "import { answer } from './shared.ts';\nexport default { fetch: () => new Response(answer) };\n");
  writeFileSync(join(dir, 'program.ts'), "export default 'started';\n");
  return dir;
}

function measurements(dir: string): HostMeasurement[] {
  return [
    // The handler on workerd (a runtime that serves modules), the node:http program on node (a plug-in with no fetch server).
    { kind: 'load', name: 'hello', params: {}, server: { handler: join(dir, 'workerd-server.ts'), nodeHttp: join(dir, 'node-server.ts') }, request: { method: 'GET', path: '/' }, load: LOAD_PROFILES.c1 },
    { kind: 'startup', name: 'start', params: {}, program: join(dir, 'program.ts'), cache: 'none', start: 'process' },
  ];
}

const codeOf = async (dir: string): Promise<Record<string, string>> =>
  Object.fromEntries((await hostSuiteCode(join(dir, 'index.ts'), measurements(dir), TARGETS, dir)).map((c) => [c.runtime, c.sha256]));

describe('hostSuiteCode', () => {
  it('hashes per runtime, the same for the same sources in another checkout, and changes with any source it builds from', async () => {
    const dir = suiteFolder();
    const before = await codeOf(dir);
    expect(Object.keys(before)).toEqual(['node', 'workerd']);
    for (const hash of Object.values(before)) expect(hash).toMatch(/^[0-9a-f]{16}$/);
    expect(before.node).not.toBe(before.workerd);
    expect(await codeOf(dir)).toEqual(before);
    // Another checkout of the same sources (inputs are named relative to the root).
    const copy = mkdtempSync(join(tmpdir(), 'rtbench-suite-code-copy-'));
    cpSync(dir, copy, { recursive: true });
    expect(await codeOf(copy)).toEqual(before);

    // The node server alone: node's code changes, workerd's does not.
    writeFileSync(join(dir, 'node-server.ts'), "import { answer } from './shared.ts';\nconsole.log('listening 0', answer, 1);\n");
    const nodeEdited = await codeOf(dir);
    expect(nodeEdited.node).not.toBe(before.node);
    expect(nodeEdited.workerd).toBe(before.workerd);
    // A module both servers import, the start-up program, and the suite's own definition: every runtime's.
    for (const [file, text] of [
      ['shared.ts', "export const answer = 'hello!';\n"],
      ['program.ts', "export default 'started!';\n"],
      ['index.ts', "export const ROUTE = '/hello!';\n"],
    ] as const) {
      const last = await codeOf(dir);
      writeFileSync(join(dir, file), text);
      const now = await codeOf(dir);
      expect(now.node, file).not.toBe(last.node);
      expect(now.workerd, file).not.toBe(last.workerd);
    }
  });

  it('leaves out a runtime whose programs do not build (its cases fail with the builder\'s message)', async () => {
    const dir = suiteFolder();
    writeFileSync(join(dir, 'workerd-server.ts'), "import { missing } from './no-such-module.ts';\nexport default missing;\n");
    expect(Object.keys(await codeOf(dir))).toEqual(['node']);
  });
});
