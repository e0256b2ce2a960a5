import { isAbsolute, relative, sep } from 'node:path';

/** A name for a file or folder from free text (a command's ranges, suites, filters): word characters and @ . + - kept, any other run as one "_", at most 120 characters. */
export function slug(text: string): string {
  return text.replace(/[^\w@.+-]+/g, '_').replace(/_+/g, '_').slice(0, 120);
}

/** An ISO time as saved files name it: "2026-11-24T02:52:50.123Z" -> "20261124-025250Z". */
export function fileStamp(iso: string): string {
  return iso.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z').replace('T', '-');
}

/** A path as a line shows it: relative when under the working folder, else whole (a cache in the home folder read as "../../root/.cache/…"). */
export function shownPath(path: string, from = process.cwd()): string {
  const rel = relative(from, path);
  const outside = rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel);
  return outside ? path : rel;
}
