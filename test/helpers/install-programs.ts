/**
 * vitest globalSetup: installs the system programs the tests need
 * (test/helpers/system-programs.ts) that are missing, once per test run, with
 * one `apt-get update` and one `apt-get install` of the packages alone,
 * without what they recommend (chromium's printer, desktop and device
 * services, valgrind's debug symbols): no test uses them, and on a fresh
 * machine they were most of the packages and a quarter of the download.
 * The install runs in a process of its own beside the first tests, which need
 * none of the programs (test/helpers/sequencer.ts starts the files that do a
 * few files later); a test that asks for a program (`program`) waits until the
 * install has ended, and the set-up says how long it took. The run's end waits
 * for it too: apt is never stopped halfway.
 * apt's locks may be held by another run on the machine: install waits on the
 * dpkg lock (DPkg::Lock::Timeout), and both steps are retried while apt says
 * a lock is taken (`apt-get update` does not wait on the lists lock itself).
 * When it cannot install (not root and no passwordless sudo, no apt-get, apt
 * fails), it prints one line and the tests that need a program fail with it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { INSTALL_STATUS_ENV, presentAt, SYSTEM_PROGRAMS, type InstallStatus, type ProgramId } from './system-programs.ts';

const LOCK_WAIT_S = 600;
const LOCK_RETRY_MS = 2_000;

export interface CommandResult {
  ok: boolean;
  output: string;
}

/** What installing needs from the machine; a fake one in the test. */
export interface Machine {
  env: NodeJS.ProcessEnv;
  exists(path: string): boolean;
  isRoot: boolean;
  run(command: string, args: string[]): CommandResult;
  sleep(ms: number): void;
  now(): number;
  say(line: string): void;
}

/** The programs missing here that the set-up should install (a program named by its variable is never installed). */
export function missingPrograms(m: Pick<Machine, 'env' | 'exists'>): ProgramId[] {
  return (Object.keys(SYSTEM_PROGRAMS) as ProgramId[]).filter((id) => !m.env[SYSTEM_PROGRAMS[id].env] && !m.exists(SYSTEM_PROGRAMS[id].path));
}

const lastLine = (text: string): string => text.trim().split('\n').filter(Boolean).at(-1) ?? 'no output';
const isLockBusy = (output: string): boolean => /Could not get lock|Unable to lock|Unable to acquire the dpkg frontend lock/.test(output);

/** Installs what is missing; returns the one-line reason when it could not (undefined when all is there). */
export function installMissing(m: Machine): string | undefined {
  const missing = missingPrograms(m);
  if (!missing.length) return undefined;
  const pkgs = missing.map((id) => SYSTEM_PROGRAMS[id].pkg);
  const sudo = !m.isRoot && m.run('sudo', ['-n', 'true']).ok;
  if (!m.isRoot && !sudo) return `${pkgs.join(', ')} missing and this user cannot install them (not root, no passwordless sudo): run \`sudo apt-get install -y ${pkgs.join(' ')}\``;
  if (!m.run('apt-get', ['--version']).ok) return `${pkgs.join(', ')} missing and apt-get is not available here: install them with the system's package manager`;
  m.say(`test set-up: installing ${pkgs.join(', ')} with apt-get (once for this run; needed by ${[...new Set(missing.map((id) => SYSTEM_PROGRAMS[id].purpose))].join(', ')})`);
  const deadline = m.now() + LOCK_WAIT_S * 1000;
  const apt = (args: string[]): CommandResult => {
    const full = ['-o', `DPkg::Lock::Timeout=${LOCK_WAIT_S}`, ...args];
    let saidWaiting = false;
    for (;;) {
      const r = sudo ? m.run('sudo', ['-n', 'apt-get', ...full]) : m.run('apt-get', full);
      if (r.ok || !isLockBusy(r.output) || m.now() >= deadline) return r;
      if (!saidWaiting) m.say(`test set-up: apt is busy (${lastLine(r.output)}); waiting up to ${LOCK_WAIT_S} s for its lock`);
      saidWaiting = true;
      m.sleep(LOCK_RETRY_MS);
    }
  };
  const update = apt(['update', '-qq']);
  if (!update.ok) return `apt-get update failed (${lastLine(update.output)}), so ${pkgs.join(', ')} could not be installed`;
  const install = apt(['install', '-y', '-qq', '--no-install-recommends', ...pkgs]);
  if (!install.ok) return `apt-get install ${pkgs.join(' ')} failed: ${lastLine(install.output)}`;
  const still = missing.filter((id) => !m.exists(SYSTEM_PROGRAMS[id].path));
  if (still.length) return `apt-get install ${pkgs.join(' ')} succeeded but ${still.map((id) => SYSTEM_PROGRAMS[id].path).join(', ')} is still missing`;
  return undefined;
}

function run(command: string, args: string[]): CommandResult {
  const r = spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, maxBuffer: 64 * 1024 * 1024 });
  return { ok: r.status === 0, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` };
}

const realMachine = (): Machine => ({
  env: process.env,
  exists: presentAt,
  isRoot: process.getuid?.() === 0,
  run,
  sleep: (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms),
  now: () => Date.now(),
  say: (line) => process.stderr.write(`${line}\n`),
});

/** The install itself, in the process the set-up starts: writes its outcome to the status file when it ends. */
function installInto(statusFile: string): void {
  const machine = realMachine();
  const started = machine.now();
  const problem = installMissing(machine);
  const seconds = Math.round((machine.now() - started) / 1000);
  const status: InstallStatus = problem === undefined ? { seconds } : { problem, seconds };
  writeFileSync(statusFile, JSON.stringify(status));
  machine.say(problem === undefined ? `test set-up: the system programs installed in ${seconds} s, beside the first tests` : `test set-up: ${problem}; the tests that need them will fail`);
}

export default function setup(): (() => Promise<void>) | undefined {
  // vitest calls a global set-up for the root and again per project: the first call does the work.
  if (process.env.RTBENCH_TEST_PROGRAMS_CHECKED) return undefined;
  process.env.RTBENCH_TEST_PROGRAMS_CHECKED = '1';
  if (!missingPrograms({ env: process.env, exists: presentAt }).length) return undefined;
  const statusFile = join(process.env.RTBENCH_TEST_TMP ?? process.cwd(), 'system-programs.json');
  process.env[INSTALL_STATUS_ENV] = statusFile;
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), statusFile], { stdio: ['ignore', 'inherit', 'inherit'] });
  // A status in any case, so that no test waits for an install that died without writing one.
  const failed = (problem: string): void => {
    if (!existsSync(statusFile)) writeFileSync(statusFile, JSON.stringify({ problem, seconds: 0 } satisfies InstallStatus));
  };
  child.on('error', (error) => failed(`the install could not start: ${error.message}`));
  const ended = new Promise<void>((resolve) => child.on('close', (code, signal) => resolve(failed(`the install ended (${signal ?? `exit ${code}`}) without saying how`))));
  return () => ended;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) installInto(process.argv[2]!);
