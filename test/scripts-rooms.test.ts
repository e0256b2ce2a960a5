/**
 * scripts/ is in rooms by purpose (scripts/README.md): checks and tools at
 * the top, measurement drivers under scripts/measure/<topic>/, a topic being a
 * page of docs/measurements/ or a package whose README records the figures.
 * A driver stays only while a page quotes its figure, so each is named by its
 * path on a page outside scripts/; an experiment no page quotes is removed.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { markdownFiles } from '../scripts/checks/named-paths.ts';
import { repoRoot } from './helpers/cli.ts';

const measure = join(repoRoot, 'scripts/measure');
const topics = readdirSync(measure);

/** A topic names a measurement page, or a package whose README holds its figures. */
const isTopic = (topic: string): boolean =>
  existsSync(join(repoRoot, 'docs/measurements', `${topic}.md`)) || existsSync(join(repoRoot, 'packages', topic, 'README.md'));

/** The drivers: the files of a topic's folder (its subfolders hold what they run). */
const drivers = topics.flatMap((topic) =>
  readdirSync(join(measure, topic))
    .filter((name) => statSync(join(measure, topic, name)).isFile())
    .map((name) => relative(repoRoot, join(measure, topic, name))),
);

describe('scripts/ in rooms', () => {
  it('each folder under scripts/measure/ is a measurement page\'s topic or a package\'s', () => {
    expect(isTopic('requests')).toBe(true);
    expect(isTopic('noise')).toBe(false);
    expect(topics.filter((t) => !isTopic(t))).toEqual([]);
  });

  it('each measurement driver is named on a page outside scripts/ that quotes its figure', () => {
    const pages = markdownFiles(repoRoot)
      .filter((f) => !relative(repoRoot, f).startsWith('scripts/'))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    expect(drivers.length).toBeGreaterThan(20);
    expect(drivers.filter((d) => !pages.includes(d))).toEqual([]);
  });
});
