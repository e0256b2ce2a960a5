/** Facts of a file remembered on disk per file identity (file-facts.ts), and what findLiterals keeps there. */
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rememberedFact, rememberFactsIn } from '@rtbench/process';
import { findLiterals } from '../src/binary-literals.ts';

let scratch: string;
let facts: string;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'rtbench-file-facts-'));
  facts = join(scratch, 'facts');
});
afterEach(() => {
  rememberFactsIn(undefined);
  rmSync(scratch, { recursive: true, force: true });
});

const isText = (value: unknown): value is string => typeof value === 'string';

/** A fact that counts how often it was computed: the file's text, read. */
function counted(path: string): { fact: () => Promise<string>; computed: () => number } {
  let computed = 0;
  return {
    fact: () =>
      rememberedFact(
        path,
        'text',
        async () => {
          computed++;
          return readFileSync(path, 'utf8');
        },
        isText,
      ),
    computed: () => computed,
  };
}

/** Facts kept in the scratch folder, and a file "binary" holding 'one' whose fact was computed (and remembered) once. */
async function rememberedOnce(): Promise<{ file: string } & ReturnType<typeof counted>> {
  rememberFactsIn(facts);
  const file = join(scratch, 'binary');
  writeFileSync(file, 'one');
  const c = counted(file);
  expect(await c.fact()).toBe('one');
  return { file, ...c };
}

describe('rememberedFact', () => {
  it('computes a fact once per file identity when given a folder, and every time without one', async () => {
    const file = join(scratch, 'binary');
    writeFileSync(file, 'one');
    const c = counted(file);
    expect(await c.fact()).toBe('one');
    expect(await c.fact()).toBe('one');
    expect(c.computed()).toBe(2);

    rememberFactsIn(facts);
    expect(await c.fact()).toBe('one');
    expect(await c.fact()).toBe('one');
    expect(c.computed()).toBe(3);
    // One entry, no partial file left behind.
    expect(readdirSync(facts)).toHaveLength(1);
  });

  it('computes again once the file is rewritten in place to the same size', async () => {
    const c = await rememberedOnce();
    const file = c.file;
    writeFileSync(file, 'two');
    // File times tick coarsely (a few ms): set the rewrite's, as a later write would have.
    const later = new Date(Date.now() + 10_000);
    utimesSync(file, later, later);
    expect(await c.fact()).toBe('two');
    expect(c.computed()).toBe(2);
  });

  it('computes again when the entry holds something else than the fact', async () => {
    const c = await rememberedOnce();
    const [entry] = readdirSync(facts);
    writeFileSync(join(facts, entry!), '{"not": "a string"}');
    expect(await c.fact()).toBe('one');
    expect(c.computed()).toBe(2);
  });

  it('does not use a folder other users may write into', async () => {
    const c = await rememberedOnce();
    chmodSync(facts, 0o777);
    await c.fact();
    await c.fact();
    expect(c.computed()).toBe(3);
  });
});

describe('findLiterals with facts remembered', () => {
  it('finds the same literals from the file and from what it remembered', async () => {
    rememberFactsIn(facts);
    const file = join(scratch, 'binary');
    writeFileSync(file, Buffer.from('\0 12.4.254.21\0junk\0 12.4.254.21\0\0 11.0.1.2\0', 'latin1'));
    const pattern = /\0 (\d+\.\d+\.\d+\.\d+)\0/g;
    const first = await findLiterals(file, pattern);
    expect([...first]).toEqual([
      ['12.4.254.21', 2],
      ['11.0.1.2', 1],
    ]);
    // What it remembered, as the next start reads it.
    const [entry] = readdirSync(facts);
    expect(JSON.parse(readFileSync(join(facts, entry!), 'utf8'))).toEqual([...first]);
  });
});
