/**
 * Saving a run: the whole record, written atomically (a crash or a full disk
 * never leaves half a file, and a save that fails leaves the previous save
 * whole; a FileWriteError says so in one line), after every job. Without
 * indentation: a run's thousands of samples one to a line made most of a
 * committed run's lines and a good part of its bytes.
 */
import type { RunRecord } from '@rtbench/core/schema';
import { diskIo, FileWriteError, writeFileAtomically, type FileIo } from '@rtbench/host/files';

export function writeRunAtomically(path: string, run: RunRecord, io: FileIo = diskIo): void {
  writeFileAtomically(path, `${JSON.stringify(run)}\n`, { io });
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
