/**
 * Where an output may not go, checked before anything runs: a symbolic link
 * (dangling too), a file the same command reads (by another name as well),
 * and one input named twice; and `-o -` meaning stdout.
 */
import { linkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { outputFileOf, refuseLinkOrInput, refuseRepeatedInput } from '../src/output-place.ts';
import { refusal, tempFolder } from '../../../test/helpers/refusal.ts';

const folder = (): string => tempFolder('output-place');


/** Two files with text in `dir`. */
function twoFiles(dir: string): [string, string] {
  const a = join(dir, 'a.json');
  const b = join(dir, 'b.json');
  writeFileSync(a, '{}');
  writeFileSync(b, '{}');
  return [a, b];
}

describe('an output that is a link or an input', () => {
  it('is refused when it is a symbolic link, to a file or to nothing, naming where it points', () => {
    const dir = folder();
    const [a] = twoFiles(dir);
    const link = join(dir, 'out.json');
    symlinkSync(a, link);
    expect(refusal(() => refuseLinkOrInput(link, '-o', []))).toBe(`-o ${link} is a symbolic link (to ${a}); name the file itself: rtbench writes a new file and renames it over the name, which would replace the link`);
    const dangling = join(dir, 'dangling.json');
    symlinkSync(join(dir, 'nowhere.json'), dangling);
    expect(refusal(() => refuseLinkOrInput(dangling, '--save', []))).toContain(`--save ${dangling} is a symbolic link (to ${join(dir, 'nowhere.json')})`);
  });

  it('is refused when it is a file the command reads, by its own name or a second (hard) name', () => {
    const dir = folder();
    const [a, b] = twoFiles(dir);
    expect(refusal(() => refuseLinkOrInput(a, '-o', [b, a]))).toBe(`-o ${a} is ${a}, which this command reads; name another file`);
    const second = join(dir, 'second.json');
    linkSync(b, second);
    expect(refusal(() => refuseLinkOrInput(second, '--save', [a, b]))).toBe(`--save ${second} is ${b}, which this command reads; name another file`);
    expect(refusal(() => refuseLinkOrInput(join(dir, '.', 'a.json'), '-o', [a]))).toContain('which this command reads');
  });

  it('is taken when it is another file, a file not there yet, or the inputs are missing', () => {
    const dir = folder();
    const [a, b] = twoFiles(dir);
    expect(() => refuseLinkOrInput(b, '-o', [a])).not.toThrow();
    expect(() => refuseLinkOrInput(join(dir, 'new.json'), '-o', [a, join(dir, 'gone.json')])).not.toThrow();
    expect(() => refuseLinkOrInput(join(dir, 'new.json'), '-o', [join(dir, 'new.json')])).not.toThrow();
    expect(() => refuseLinkOrInput(b, '-o', [join(dir, 'gone.json')])).not.toThrow();
  });

  it('is refused when an input is a link to it', () => {
    const dir = folder();
    const [a] = twoFiles(dir);
    const link = join(dir, 'link.json');
    symlinkSync(a, link);
    expect(refusal(() => refuseLinkOrInput(a, '-o', [link]))).toBe(`-o ${a} is ${link}, which this command reads; name another file`);
  });
});

describe('inputs named twice', () => {
  it('are refused by the later name, naming the earlier, also by a link or a second name', () => {
    const dir = folder();
    const [a, b] = twoFiles(dir);
    expect(refusal(() => refuseRepeatedInput([a, b, a], 'compare'))).toBe(`compare: ${a} and ${a} are one file; name two different runs`);
    const link = join(dir, 'link.json');
    symlinkSync(b, link);
    expect(refusal(() => refuseRepeatedInput([a, b, link], 'merge'))).toBe(`merge: ${link} and ${b} are one file; name two different runs`);
    expect(refusal(() => refuseRepeatedInput([link, a, b], 'merge'))).toBe(`merge: ${b} and ${link} are one file; name two different runs`);
  });

  it('are not refused when the files are different, or missing (each missing file is said when read)', () => {
    const dir = folder();
    const [a, b] = twoFiles(dir);
    expect(() => refuseRepeatedInput([a, b], 'compare')).not.toThrow();
    expect(() => refuseRepeatedInput([join(dir, 'x.json'), join(dir, 'y.json'), join(dir, 'x.json')], 'compare')).not.toThrow();
  });
});

describe('-o', () => {
  it('- is stdout (undefined); any other name is that file', () => {
    expect(outputFileOf('-')).toBeUndefined();
    expect(outputFileOf(undefined)).toBeUndefined();
    expect(outputFileOf('run.json')).toBe('run.json');
    expect(outputFileOf('./-')).toBe('./-');
  });
});
