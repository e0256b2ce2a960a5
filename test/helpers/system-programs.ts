/**
 * The system programs some tests need, from Debian's packages: Chromium for
 * the page tests, wrk for http-hello's load, valgrind for instruction counts,
 * perf for native profiles, PostgreSQL for the shared results store, and for the linux-arm64 check under emulation
 * qemu-user and Debian's arm64 cross libraries (run with `qemu-aarch64-static
 * -L /usr/aarch64-linux-gnu`, so no binfmt_misc registration and no second
 * dpkg architecture are needed). They are installed once, before any test runs, by
 * the suite's global set-up (test/helpers/install-programs.ts), beside the
 * first tests, which need none of them; a test file asks for the path here
 * (`program`, which waits while the set-up is still installing) and fails
 * with the set-up's reason when the program is missing. An environment variable naming another binary is used
 * as it is and never installed.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export type ProgramId = 'chromium' | 'wrk' | 'valgrind' | 'perf' | 'postgres' | 'qemu-aarch64' | 'arm64-libc' | 'arm64-libstdc++' | 'arm64-libatomic';

export interface SystemProgram {
  /** The Debian package that installs it. */
  pkg: string;
  /** Where Debian's package puts it; a `*` stands for one folder named by the version (present when any version holds it). */
  path: string;
  /** The variable that names another binary. */
  env: string;
  /** Who needs it, for the messages. */
  purpose: string;
}

/** Where Debian's *-arm64-cross packages put arm64 libraries: qemu's -L (the emulated program's /). */
export const ARM64_LIBRARIES = '/usr/aarch64-linux-gnu';

export const SYSTEM_PROGRAMS: Readonly<Record<ProgramId, SystemProgram>> = {
  chromium: { pkg: 'chromium', path: '/usr/bin/chromium', env: 'RTBENCH_CHROMIUM', purpose: 'the HTML report tests' },
  wrk: { pkg: 'wrk', path: '/usr/bin/wrk', env: 'RTBENCH_WRK', purpose: 'the http-hello tests' },
  valgrind: { pkg: 'valgrind', path: '/usr/bin/valgrind', env: 'RTBENCH_VALGRIND', purpose: 'the instruction-count tests' },
  perf: { pkg: 'linux-perf', path: '/usr/bin/perf', env: 'RTBENCH_PERF', purpose: 'the native-profile tests' },
  // Debian's server: its programs are under /usr/lib/postgresql/<version>/bin (test/helpers/postgres.ts). Not pg_ctlcluster: it comes
  // with postgresql-common, which the client alone installs and which outlives the server's removal. The variable names a folder holding initdb and pg_ctl.
  postgres: { pkg: 'postgresql', path: '/usr/lib/postgresql/*/bin/initdb', env: 'RTBENCH_POSTGRES', purpose: 'the PostgreSQL store test' },
  'qemu-aarch64': { pkg: 'qemu-user-static', path: '/usr/bin/qemu-aarch64-static', env: 'RTBENCH_QEMU_AARCH64', purpose: 'the linux-arm64 check under emulation' },
  'arm64-libc': { pkg: 'libc6-arm64-cross', path: `${ARM64_LIBRARIES}/lib/ld-linux-aarch64.so.1`, env: 'RTBENCH_ARM64_LIBC', purpose: 'the linux-arm64 check under emulation' },
  'arm64-libstdc++': { pkg: 'libstdc++6-arm64-cross', path: `${ARM64_LIBRARIES}/lib/libstdc++.so.6`, env: 'RTBENCH_ARM64_LIBSTDCXX', purpose: 'the linux-arm64 check under emulation' },
  'arm64-libatomic': { pkg: 'libatomic1-arm64-cross', path: `${ARM64_LIBRARIES}/lib/libatomic.so.1`, env: 'RTBENCH_ARM64_LIBATOMIC', purpose: 'the linux-arm64 check under emulation' },
};

/** Set by the global set-up when it could not install what was missing: its one line. */
export const INSTALL_PROBLEM_ENV = 'RTBENCH_TEST_INSTALL_PROBLEM';

/** Set by the global set-up while it installs beside the tests: the file it writes its outcome to when done. */
export const INSTALL_STATUS_ENV = 'RTBENCH_TEST_INSTALL_STATUS';

/** What the set-up's install wrote when it ended: the one-line reason it could not, if any, and how long it took. */
export interface InstallStatus {
  problem?: string;
  seconds: number;
}

/** Whether a program's path is present; a `*` segment matches any one folder there (a version's). */
export function presentAt(path: string): boolean {
  const star = path.indexOf('/*/');
  if (star < 0) return existsSync(path);
  const parent = path.slice(0, star);
  const rest = path.slice(star + 3);
  try {
    return readdirSync(parent).some((folder) => existsSync(join(parent, folder, rest)));
  } catch {
    return false;
  }
}

/** The binary's path: the variable's value when set, else Debian's path. */
export function programPath(id: ProgramId, env: NodeJS.ProcessEnv = process.env): string {
  const p = SYSTEM_PROGRAMS[id];
  return env[p.env] || p.path;
}

/** How a user installs it, or names another binary. */
export function howToInstall(id: ProgramId): string {
  const p = SYSTEM_PROGRAMS[id];
  return `install it with \`sudo apt-get install -y ${p.pkg}\`, or name a ${id} binary with ${p.env}=/path/to/${id}`;
}

/** The program's path; throws one line saying why it is missing (the set-up's reason, when it tried). */
export function requireProgram(id: ProgramId, env: NodeJS.ProcessEnv = process.env, exists: (path: string) => boolean = presentAt): string {
  const path = programPath(id, env);
  if (exists(path)) return path;
  const p = SYSTEM_PROGRAMS[id];
  if (env[p.env]) throw new Error(`${p.env}=${path} does not exist (${p.purpose} need ${id}); ${howToInstall(id)}`);
  const why = env[INSTALL_PROBLEM_ENV] ? ` (the test set-up could not install it: ${env[INSTALL_PROBLEM_ENV]})` : '';
  throw new Error(`${p.purpose} need ${id}, which is not at ${path}${why}; ${howToInstall(id)}`);
}

const readStatus = (path: string): InstallStatus | undefined => {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as InstallStatus;
  } catch {
    return undefined;
  }
};

/**
 * The program's path, once the set-up's install (if one is under way) has
 * ended; throws as `requireProgram` does when it is still missing.
 */
export async function program(id: ProgramId, env: NodeJS.ProcessEnv = process.env, exists: (path: string) => boolean = presentAt, wait: (ms: number) => Promise<unknown> = sleep): Promise<string> {
  const statusFile = env[INSTALL_STATUS_ENV];
  if (statusFile && !exists(programPath(id, env))) {
    let status: InstallStatus | undefined;
    while ((status = readStatus(statusFile)) === undefined) await wait(1_000);
    if (status.problem) return requireProgram(id, { ...env, [INSTALL_PROBLEM_ENV]: status.problem }, exists);
  }
  return requireProgram(id, env, exists);
}
