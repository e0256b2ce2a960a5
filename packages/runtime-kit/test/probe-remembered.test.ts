/** A runtime binary's probe answer remembered per file identity (binary.ts probeOutput), asked again once the binary is replaced. */
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rememberFactsIn } from '@rtbench/process';
import { probeOutput } from '../src/index.ts';

let scratch: string;
let facts: string;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'rtbench-probe-facts-'));
  facts = join(scratch, 'facts');
  rememberFactsIn(facts);
});
afterEach(() => {
  rememberFactsIn(undefined);
  rmSync(scratch, { recursive: true, force: true });
});

/** The one remembered entry, overwritten with an answer the binary never gives: a probe that returns it read the cache. */
function plantAnswer(answer: string): void {
  const entries = readdirSync(facts);
  expect(entries).toHaveLength(1);
  writeFileSync(join(facts, entries[0]!), JSON.stringify(answer));
}

describe('probeOutput remembers a binary’s answer', () => {
  // echo is a small compiled binary on every platform rtbench runs on: it stands for a runtime.
  const echo = '/bin/echo';

  it('answers from what it remembered until the binary is replaced', async () => {
    const binary = join(scratch, 'runtime');
    copyFileSync(echo, binary);
    chmodSync(binary, 0o755);
    expect(await probeOutput('fake@1', binary, ['v1'], { PATH: process.env.PATH })).toBe('v1\n');
    plantAnswer('remembered\n');
    expect(await probeOutput('fake@1', binary, ['v1'], { PATH: process.env.PATH })).toBe('remembered\n');
    // Other arguments are another question.
    expect(await probeOutput('fake@1', binary, ['v2'], { PATH: process.env.PATH })).toBe('v2\n');
    // The binary replaced in place (same bytes, a later write): asked again.
    copyFileSync(echo, binary);
    const later = new Date(Date.now() + 10_000);
    utimesSync(binary, later, later);
    expect(await probeOutput('fake@1', binary, ['v1'], { PATH: process.env.PATH })).toBe('v1\n');
  });

  it('always asks a script', async () => {
    const script = join(scratch, 'runtime.sh');
    mkdirSync(facts, { mode: 0o700 });
    writeFileSync(script, '#!/bin/sh\necho "$1"\n', { mode: 0o755 });
    expect(await probeOutput('fake@1', script, ['v1'], { PATH: process.env.PATH })).toBe('v1\n');
    expect(await probeOutput('fake@1', script, ['v1'], { PATH: process.env.PATH })).toBe('v1\n');
    expect(readdirSync(facts)).toEqual([]);
  });
});
