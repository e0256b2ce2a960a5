/**
 * Runtime plug-ins from RTBENCH_RUNTIME_PLUGINS that misbehave, through the
 * real CLI (test/fixtures/faulty-plugins): each ends in one line that names
 * the plug-in's file and why, never a stack trace, never raw escape sequences
 * from a binary, never exit 0. No runtime starts: every case stops before.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixture, repoRoot, runCliAsync, tempFile } from './helpers/cli.ts';

const plugin = (name: string): string => `${repoRoot}/test/fixtures/${name}`;
const bench = (plugins: string, runtime: string) =>
  runCliAsync(['bench', fixture('tiny'), '--runtime', runtime, '--filter', 'n=200', '--rounds', '1', '--time', '20ms', '--quiet'], { RTBENCH_RUNTIME_PLUGINS: plugins });
const oneLine = (stderr: string): string[] => stderr.trim().split('\n');

describe.concurrent('runtime plug-ins that misbehave', () => {
  it('a binary that prints garbage (escape sequences) to the plug-in: one escaped line naming the plug-in and its file', async () => {
    const binary = tempFile('garbage');
    writeFileSync(binary, '#!/bin/sh\nprintf "\\033]0;owned\\007\\033[2Jnot json\\n"\n');
    chmodSync(binary, 0o755);
    const file = plugin('fifth-runtime/plugin.ts');
    const r = await bench(file, `nodelike=${binary}`);
    expect(r.status).not.toBe(0);
    expect(r.stderr).not.toMatch(/\x1b|\x07/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(oneLine(r.stderr)).toEqual([expect.stringContaining(`runtime plug-in "nodelike" (${file}) resolving "nodelike=${binary}" failed: SyntaxError: Unexpected token '\\u001b'`)]);
  });

  it('a plug-in that takes a registered name: refused with the file that tried', async () => {
    const file = plugin('faulty-plugins/taken-name.ts');
    const r = await bench(file, 'node');
    expect(r.status).toBe(2);
    expect(oneLine(r.stderr)).toEqual([`error: RTBENCH_RUNTIME_PLUGINS: ${file}: runtime plug-in "node": the name is taken by Node.js's plug-in`]);
  });

  it('a plug-in whose top level calls process.exit(0): rtbench does not end with 0, and says which file did it', async () => {
    const file = plugin('faulty-plugins/exits.ts');
    const r = await bench(file, 'node');
    expect(r.status).toBe(2);
    expect(oneLine(r.stderr)).toEqual([`error: RTBENCH_RUNTIME_PLUGINS: ${file} called process.exit(0) while loading; a runtime plug-in must not end rtbench`]);
  });

  it('a plug-in whose resolve() calls process.exit(0): rtbench ends with 70, not 0, naming the plug-in it was waiting on', async () => {
    const file = plugin('faulty-plugins/exits-in-resolve.ts');
    const r = await bench(file, 'exiting');
    expect(r.status).toBe(70);
    expect(oneLine(r.stderr)).toEqual([`error: rtbench ended before it finished, while waiting on runtime plug-in "exiting" (${file}) resolving "exiting", which can no longer answer (or ended the process); nothing more was measured or saved`]);
  });

  it('a plug-in whose resolve() never settles: rtbench ends non-zero naming the plug-in it waited on', async () => {
    const file = plugin('faulty-plugins/never-resolves.ts');
    const r = await bench(file, 'hanging');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(`error: rtbench ended before it finished, while waiting on runtime plug-in "hanging" (${file}) resolving "hanging"`);
  });

  it('a plug-in in a folder without "type": "module" (its own copy of runtime-kit): its RuntimeUnavailableError is read as one', async () => {
    const r = await bench(plugin('faulty-plugins/no-module/plugin.ts'), 'copied');
    expect(r.status).toBe(2);
    expect(oneLine(r.stderr)).toEqual(['error: copied: no copied runtime is installed here']);
  });
});
