/**
 * A system program the tests need (Chromium for the page, valgrind for
 * instruction counts), installed from Debian's packages when it is missing
 * and we may install it (root, or passwordless sudo). Otherwise the error
 * says how to install it: the test fails with it, it never skips.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

function run(command: string, args: string[]): { ok: boolean; output: string } {
  const result = spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, maxBuffer: 64 * 1024 * 1024 });
  return { ok: result.status === 0, output: `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}` };
}

function tail(text: string, lines = 15): string {
  return text.trim().split('\n').slice(-lines).join('\n');
}

export interface DebianProgram {
  /** Where the program is expected. */
  path: string;
  /** The Debian package that installs it. */
  pkg: string;
  /** What to tell the user, e.g. "install Debian's Chromium with `sudo apt-get install -y chromium`, or …". */
  howToInstall: string;
  /** Set when the user named the program's path (an environment variable): then it is never installed. */
  named?: string;
  /** Who needs it, for the one line printed while installing. */
  purpose: string;
}

/** The program's path, installed first if it is missing and we may install it. Throws with instructions otherwise. */
export function ensureDebianProgram(p: DebianProgram): string {
  if (existsSync(p.path)) return p.path;
  if (p.named) throw new Error(`${p.named}=${p.path} does not exist; ${p.howToInstall}`);
  const isRoot = process.getuid?.() === 0;
  const sudo = !isRoot && run('sudo', ['-n', 'true']).ok;
  if (!isRoot && !sudo) throw new Error(`${p.pkg} is not installed at ${p.path} and this user cannot install it (not root, no passwordless sudo): ${p.howToInstall}`);
  if (!run('apt-get', ['--version']).ok) throw new Error(`${p.pkg} is not installed at ${p.path} and apt-get is not available here: ${p.howToInstall}`);
  const apt = (args: string[]): { ok: boolean; output: string } => (sudo ? run('sudo', ['-n', 'apt-get', ...args]) : run('apt-get', args));
  process.stderr.write(`${p.purpose}: installing Debian's ${p.pkg} package (once; it is missing at ${p.path})\n`);
  const update = apt(['update', '-qq']);
  if (!update.ok) throw new Error(`apt-get update failed while installing ${p.pkg}:\n${tail(update.output)}\n${p.howToInstall}`);
  const install = apt(['install', '-y', '-qq', p.pkg]);
  if (!install.ok || !existsSync(p.path)) throw new Error(`apt-get install ${p.pkg} failed:\n${tail(install.output)}\n${p.howToInstall}`);
  return p.path;
}
