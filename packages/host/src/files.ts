/**
 * @rtbench/host/files: the host's file tools that start nothing (a file
 * written atomically, a name's stamp and slug), for the modules that read and
 * write saved runs without loading the host's installs, builds and runners.
 */
export { diskIo, FileWriteError, writeFileAtomically, writeFileAtomicallyFrom, type FileIo } from './atomic-file.ts';
export { fileStamp, slug } from './file-name.ts';
