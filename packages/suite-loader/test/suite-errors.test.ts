/**
 * A suite that throws while it loads is one line naming where: the error's
 * message with its line breaks shown as `\n`, and the first frame of its
 * stack in the suite's own folder. The real command's words on a suite that
 * does not compile, and one whose cases throw as they are listed (a real
 * frame, through the loader), are test/faults/usage.test.ts's.
 */
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { suiteLoadError } from '../src/index.ts';

const folder = join(process.cwd(), '.rtbench-cache', 'broken-suite');
const location = { name: 'broken', entry: join(folder, 'index.ts') };

/** An error as the loader catches it, its stack's frames those given (a runtime's module, then the suite's line). */
function thrown(message: string, frames: readonly string[]): Error {
  const error = new Error(message);
  error.stack = [`Error: ${message}`, ...frames.map((f) => `    at ${f}`)].join('\n');
  return error;
}

describe('a suite that does not load', () => {
  it("says what it threw and where, at the first frame in the suite's folder", () => {
    const error = thrown('no data file', ['readData (/usr/lib/node/fs.js:10:3)', `file://${join(folder, 'index.ts')}:2:7`, 'ModuleJob.run (node:internal/modules/esm/module_job:1:1)']);
    expect(suiteLoadError(location, error).message).toBe(`suite "broken" does not load: no data file (at ${relative(process.cwd(), join(folder, 'index.ts'))}:2:7)`);
  });

  it('keeps a message of several lines on one line, its breaks shown as \\n', () => {
    const error = thrown('no data file\nlooked in ./data', [`(${join(folder, 'data.ts')}:4:9)`]);
    expect(suiteLoadError(location, error).message).toBe(`suite "broken" does not load: no data file\\nlooked in ./data (at ${relative(process.cwd(), join(folder, 'data.ts'))}:4:9)`);
  });

  it('names no place outside its folder, and says a thrown value that is no Error as it is', () => {
    expect(suiteLoadError(location, thrown('boom', ['x (/elsewhere/index.ts:1:1)'])).message).toBe('suite "broken" does not load: boom');
    expect(suiteLoadError(location, null).message).toBe('suite "broken" does not load: null');
  });
});
