/**
 * Places an output must not be, checked before anything runs: a symbolic
 * link, and a file the same command reads; and one input named twice.
 *
 * A link is refused, not written through: every output is written to a
 * temporary file and renamed over its name (a crash never leaves half a
 * file), which would replace the link itself; following it instead would
 * write a file the command line does not name (a link planted in a shared
 * folder could point anywhere the user can write). Naming the file itself
 * costs the user one word.
 */
import { lstatSync, readlinkSync, statSync, type Stats } from 'node:fs';
import { UsageError } from '@rtbench/core/usage-error';

function statOf(path: string, follow: boolean): Stats | undefined {
  try {
    return follow ? statSync(path) : lstatSync(path);
  } catch {
    return undefined;
  }
}

/** Whether two paths name one file (the same device and inode: a second name, a link or `./` do not hide it). */
function sameFile(a: string, b: string): boolean {
  const x = statOf(a, true);
  const y = statOf(b, true);
  return x !== undefined && y !== undefined && x.dev === y.dev && x.ino === y.ino;
}

/** A UsageError when `path` is a symbolic link or one of the files the command reads. */
export function refuseLinkOrInput(path: string, option: string, inputs: readonly string[]): void {
  if (statOf(path, false)?.isSymbolicLink()) {
    throw new UsageError(`${option} ${path} is a symbolic link (to ${readlinkSync(path)}); name the file itself: rtbench writes a new file and renames it over the name, which would replace the link`);
  }
  const read = inputs.find((input) => sameFile(input, path));
  if (read !== undefined) throw new UsageError(`${option} ${path} is ${read}, which this command reads; name another file`);
}

/** A UsageError when one file is named twice among a command's inputs. */
export function refuseRepeatedInput(files: readonly string[], what: string): void {
  files.forEach((file, i) => {
    const earlier = files.slice(0, i).find((other) => sameFile(other, file));
    if (earlier !== undefined) throw new UsageError(`${what}: ${file} and ${earlier} are one file; name two different runs`);
  });
}

/** The file -o names, or undefined for stdout: `-o -` is stdout, as it is for most command-line tools. */
export function outputFileOf(output: string | undefined): string | undefined {
  return output === '-' ? undefined : output;
}
