/**
 * Saving a run: the whole record, written atomically (a crash or a full disk
 * never leaves half a file, and a save that fails leaves the previous save
 * whole; a FileWriteError says so in one line), after every job. Without
 * indentation: a run's thousands of samples one to a line made most of a
 * committed run's lines and a good part of its bytes. A name ending `.gz`
 * (`run.json.gz`) is written compressed with gzip, the same JSON inside,
 * which every command that reads a run unpacks (results-file.ts): samples
 * are most of a run, and they pack to a quarter of its JSON or less
 * (packages/cli/test/compact-save.test.ts).
 */
import { gzipSync, constants } from 'node:zlib';
import type { RunRecord } from '@rtbench/core/schema';
import { diskIo, FileWriteError, writeFileAtomically, type FileIo } from '@rtbench/host/files';

/** Whether a run saved at `path` is written compressed. */
const savesCompressed = (path: string): boolean => path.endsWith('.gz');

/** The bytes of a run saved at `path`: its JSON on one line, compressed at gzip's best level when the name ends `.gz`. */
function runFileBytes(path: string, run: RunRecord): string | Buffer {
  const json = `${JSON.stringify(run)}\n`;
  // The best level: a save is written once a job, and the level is a few points of size on samples' digits.
  return savesCompressed(path) ? gzipSync(json, { level: constants.Z_BEST_COMPRESSION }) : json;
}

export function writeRunAtomically(path: string, run: RunRecord, io: FileIo = diskIo): void {
  writeFileAtomically(path, runFileBytes(path, run), { io });
}

/**
 * The loop's save hook for a run saved at `path`. A save that fails (a full
 * disk) stops neither the run nor touches the last save: it is said once per
 * reason (`say`), and the next save tries again. `unsaved` is why the last
 * save failed, if it did.
 */
export function runSaver(path: string, say: (line: string) => void, io: FileIo = diskIo): { save(run: RunRecord): void; readonly unsaved: string | undefined } {
  let unsaved: string | undefined;
  return {
    save(run) {
      try {
        writeRunAtomically(path, run, io);
        unsaved = undefined;
      } catch (error) {
        const why = error instanceof FileWriteError ? error.reason : (error as Error).message;
        if (why !== unsaved) say(`could not save the run to ${path} (${why}); the file keeps the last save, measuring goes on and the next save tries again`);
        unsaved = why;
      }
    },
    get unsaved() {
      return unsaved;
    },
  };
}
