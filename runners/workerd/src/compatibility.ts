/**
 * A Workers program's own compatibility date and flags (a wrangler
 * project's), checked against the workerd that is to serve it before any
 * round: workerd itself refuses a date newer than its own and a flag it does
 * not know only as it starts, in a crash that names the config's services.
 * The flags a binary knows are the names its compatibility schema carries,
 * each stored in the binary as a NUL-terminated string.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import type { WorkersCompatibility } from '@rtbench/core/request';
import type { RuntimeTarget } from '@rtbench/runtime-kit';

const CHUNK = 4 * 1024 * 1024;

const NAME_BYTE = /[A-Za-z0-9_]/;

/** Whether `view` holds `bytes` as a whole name: not the tail of a longer one (`navigator` in `global_navigator`). */
function holdsWhole(view: Buffer, bytes: Buffer): boolean {
  for (let at = view.indexOf(bytes); at !== -1; at = view.indexOf(bytes, at + 1)) {
    if (at === 0 || !NAME_BYTE.test(String.fromCharCode(view[at - 1]!))) return true;
  }
  return false;
}

/** Which of `names` the file holds as NUL-terminated strings, read in chunks (a binary is 100+ MB). */
function namesIn(file: string, names: readonly string[]): Set<string> {
  const wanted = names.map((n) => ({ name: n, bytes: Buffer.from(`${n}\0`) }));
  const overlap = Math.max(...wanted.map((w) => w.bytes.length));
  const found = new Set<string>();
  const buffer = Buffer.alloc(CHUNK + overlap);
  const fd = openSync(file, 'r');
  try {
    let kept = 0;
    for (let position = 0; found.size < wanted.length; ) {
      const read = readSync(fd, buffer, kept, CHUNK, position);
      if (read === 0) break;
      position += read;
      const view = buffer.subarray(0, kept + read);
      for (const w of wanted) if (!found.has(w.name) && holdsWhole(view, w.bytes)) found.add(w.name);
      kept = Math.min(overlap, view.length);
      view.copy(buffer, 0, view.length - kept);
    }
  } finally {
    closeSync(fd);
  }
  return found;
}

/** Per binary and flag: whether it knows it. */
const known = new Map<string, boolean>();

function unknownFlags(binary: string, flags: readonly string[]): string[] {
  const ask = flags.filter((f) => !known.has(`${binary}\0${f}`));
  if (ask.length) {
    const found = namesIn(binary, ask);
    for (const f of ask) known.set(`${binary}\0${f}`, found.has(f));
  }
  return flags.filter((f) => known.get(`${binary}\0${f}`) === false);
}

/** A YYYY-MM-DD that names a day of the calendar. */
const isCalendarDate = (text: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(text) && new Date(`${text}T00:00:00Z`).toISOString().slice(0, 10) === text;

/** Why this workerd cannot serve a program with these compatibility settings, in one clause; undefined when it can. */
export function compatibilityProblem(target: Pick<RuntimeTarget, 'binary' | 'version'>, compatibility: WorkersCompatibility): string | undefined {
  const date = compatibility.date;
  if (date !== undefined && !isCalendarDate(date)) return `its compatibility date ${date} is not a day of the calendar`;
  // A release's version is the newest date it serves (a build of one's own may say otherwise: not checked).
  if (date !== undefined && isCalendarDate(target.version) && date > target.version) return `its compatibility date ${date} is newer than this workerd (${target.version}) serves: a date up to its own, or a newer workerd`;
  let unknown: string[];
  try {
    unknown = unknownFlags(target.binary, compatibility.flags);
  } catch {
    return undefined;
  }
  if (unknown.length) return `${unknown.length === 1 ? 'its compatibility flag' : 'its compatibility flags'} ${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not known to this workerd (${target.version})`;
  return undefined;
}
