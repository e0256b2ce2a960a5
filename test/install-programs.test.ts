/**
 * The test set-up that installs the system programs tests need
 * (test/helpers/install-programs.ts), on a fake machine: one apt-get update
 * and one install for everything missing, waiting while apt's locks are
 * taken, and one line when it cannot.
 */
import { describe, expect, it } from 'vitest';
import { installMissing, missingPrograms, type CommandResult, type Machine } from './helpers/install-programs.ts';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { needsProgram, programsLater } from './helpers/sequencer.ts';
import { INSTALL_PROBLEM_ENV, INSTALL_STATUS_ENV, presentAt, program, requireProgram, SYSTEM_PROGRAMS, type ProgramId } from './helpers/system-programs.ts';

/** The linux-arm64 emulation's pieces (and PostgreSQL's server): present in the fakes unless a test leaves them out. */
const EMULATION: ProgramId[] = ['qemu-aarch64', 'arm64-libc', 'arm64-libstdc++', 'arm64-libatomic'];

interface Fake extends Machine {
  calls: string[];
  said: string[];
}

function fakeMachine(opts: { present?: string[]; emulation?: boolean; postgres?: boolean; isRoot?: boolean; env?: NodeJS.ProcessEnv; answer?: (args: string[], call: number) => CommandResult }): Fake {
  const present = new Set([...(opts.present ?? []), ...(opts.emulation === false ? [] : EMULATION.map((id) => SYSTEM_PROGRAMS[id].path)), ...(opts.postgres === false ? [] : [SYSTEM_PROGRAMS.postgres.path])]);
  let clock = 0;
  const calls: string[] = [];
  const said: string[] = [];
  return {
    calls,
    said,
    env: opts.env ?? {},
    exists: (p) => present.has(p),
    isRoot: opts.isRoot ?? true,
    run(command, args) {
      calls.push([command, ...args].join(' '));
      if (command === 'sudo' && args[0] === '-n' && args[1] === 'true') return { ok: false, output: 'sudo: a password is required' };
      const r = opts.answer?.(args, calls.length) ?? { ok: true, output: '' };
      // A successful install puts every program in place.
      if (r.ok && args.includes('install')) for (const p of Object.values(SYSTEM_PROGRAMS)) present.add(p.path);
      return r;
    },
    sleep: (ms) => void (clock += ms),
    now: () => clock,
    say: (line) => void said.push(line),
  };
}

describe('installing the programs the tests need', () => {
  it('does nothing when every program is there or named by its variable', () => {
    const m = fakeMachine({ present: ['/usr/bin/chromium', '/usr/bin/wrk', '/usr/bin/valgrind'], env: { RTBENCH_PERF: '/opt/perf' } });
    expect(missingPrograms(m)).toEqual([]);
    expect(installMissing(m)).toBeUndefined();
    expect(m.calls).toEqual([]);
  });

  it('installs everything missing with one update and one install of the packages alone (no recommends), waiting on the dpkg lock', () => {
    const m = fakeMachine({ present: ['/usr/bin/valgrind'] });
    expect(installMissing(m)).toBeUndefined();
    const apt = m.calls.filter((c) => c.startsWith('apt-get -o'));
    expect(apt).toEqual(['apt-get -o DPkg::Lock::Timeout=600 update -qq', 'apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends chromium wrk linux-perf']);
    expect(m.said).toHaveLength(1);
    expect(m.said[0]).toMatch(/installing chromium, wrk, linux-perf with apt-get \(once/);
  });

  it('installs qemu-user and the arm64 libraries in the same single install as the rest', () => {
    const m = fakeMachine({ present: ['/usr/bin/valgrind', '/usr/bin/wrk'], emulation: false });
    expect(installMissing(m)).toBeUndefined();
    expect(m.calls.filter((c) => c.startsWith('apt-get -o'))).toEqual([
      'apt-get -o DPkg::Lock::Timeout=600 update -qq',
      'apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends chromium linux-perf qemu-user-static libc6-arm64-cross libstdc++6-arm64-cross libatomic1-arm64-cross',
    ]);
    expect(m.said[0]).toMatch(/needed by the HTML report tests, the native-profile tests, the linux-arm64 check under emulation/);
  });

  it("installs PostgreSQL's server, for the shared results store's tests, with the rest", () => {
    const m = fakeMachine({ present: ['/usr/bin/chromium', '/usr/bin/valgrind', '/usr/bin/perf'], postgres: false });
    expect(installMissing(m)).toBeUndefined();
    expect(m.calls.filter((c) => c.startsWith('apt-get -o'))).toEqual(['apt-get -o DPkg::Lock::Timeout=600 update -qq', 'apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends wrk postgresql']);
    expect(m.said[0]).toMatch(/needed by the http-hello tests, the PostgreSQL store test\)/);
  });

  it("counts PostgreSQL's server present by a version's initdb, not by the client's common tools", () => {
    const root = mkdtempSync(join(tmpdir(), 'rtbench-pg-present-'));
    const initdb = SYSTEM_PROGRAMS.postgres.path.replace('/usr/lib/postgresql', root);
    // What the client and postgresql-common leave once the server is removed: a version's folder without initdb.
    mkdirSync(join(root, '15', 'bin'), { recursive: true });
    writeFileSync(join(root, '15', 'bin', 'psql'), '');
    expect(presentAt(initdb)).toBe(false);
    mkdirSync(join(root, '16', 'bin'), { recursive: true });
    writeFileSync(join(root, '16', 'bin', 'initdb'), '');
    expect(presentAt(initdb)).toBe(true);
    expect(presentAt(join(root, 'none', '*', 'bin', 'initdb'))).toBe(false);
    expect(presentAt(join(root, '16', 'bin', 'initdb'))).toBe(true);
  });

  it('waits while apt says a lock is taken (update does not wait on the lists lock itself), saying so once', () => {
    const busy = { ok: false, output: 'E: Could not get lock /var/lib/apt/lists/lock. It is held by process 42 (apt-get)' };
    const m = fakeMachine({ answer: (args, call) => (args.includes('update') && call < 6 ? busy : { ok: true, output: '' }) });
    expect(installMissing(m)).toBeUndefined();
    expect(m.calls.filter((c) => c.includes(' update ')).length).toBeGreaterThan(1);
    expect(m.said.filter((l) => l.includes('apt is busy'))).toHaveLength(1);
  });

  it('gives up on a lock held past the wait, with apt’s own line', () => {
    const m = fakeMachine({ answer: (args) => (args.includes('update') ? { ok: false, output: 'E: Could not get lock /var/lib/apt/lists/lock' } : { ok: true, output: '' }) });
    expect(installMissing(m)).toBe('apt-get update failed (E: Could not get lock /var/lib/apt/lists/lock), so chromium, wrk, valgrind, linux-perf could not be installed');
  });

  it('says in one line when this user cannot install (not root, no passwordless sudo), and the test that needs the program fails with it', () => {
    const m = fakeMachine({ isRoot: false, present: ['/usr/bin/chromium', '/usr/bin/valgrind', '/usr/bin/perf'] });
    const problem = installMissing(m)!;
    expect(problem).toBe('wrk missing and this user cannot install them (not root, no passwordless sudo): run `sudo apt-get install -y wrk`');
    expect(m.calls.some((c) => c.startsWith('apt-get'))).toBe(false);
    expect(() => requireProgram('wrk', { [INSTALL_PROBLEM_ENV]: problem }, m.exists)).toThrow(/the http-hello tests need wrk, which is not at \/usr\/bin\/wrk \(the test set-up could not install it: wrk missing and this user cannot install/);
  });

  it('names a failed install by apt’s last line', () => {
    const m = fakeMachine({ answer: (args) => (args.includes('install') ? { ok: false, output: 'Reading package lists...\nE: Unable to locate package wrk\n' } : { ok: true, output: '' }) });
    expect(installMissing(m)).toBe('apt-get install chromium wrk valgrind linux-perf failed: E: Unable to locate package wrk');
  });

  it('names the variable when a named binary does not exist', () => {
    expect(() => requireProgram('valgrind', { RTBENCH_VALGRIND: '/nonexistent/valgrind' }, () => false)).toThrow(/^RTBENCH_VALGRIND=\/nonexistent\/valgrind does not exist/);
  });
});

describe('the install beside the first tests', () => {
  it('a test that asks for a program waits until the install has ended, then has its path', async () => {
    const status = join(mkdtempSync(join(tmpdir(), 'rtbench-install-')), 'status.json');
    const present = new Set<string>();
    let waits = 0;
    const path = await program('wrk', { [INSTALL_STATUS_ENV]: status }, (p) => present.has(p), async () => {
      // The install ends while the test waits: the program is in place, the status written.
      if (++waits === 3) {
        present.add('/usr/bin/wrk');
        writeFileSync(status, JSON.stringify({ seconds: 42 }));
      }
    });
    expect(path).toBe('/usr/bin/wrk');
    expect(waits).toBe(3);
  });

  it('fails with the install\'s reason when it could not install', async () => {
    const status = join(mkdtempSync(join(tmpdir(), 'rtbench-install-')), 'status.json');
    writeFileSync(status, JSON.stringify({ problem: 'apt-get install wrk failed: E: Unable to locate package wrk', seconds: 3 }));
    await expect(program('wrk', { [INSTALL_STATUS_ENV]: status }, () => false)).rejects.toThrow(/the http-hello tests need wrk, which is not at \/usr\/bin\/wrk \(the test set-up could not install it: apt-get install wrk failed/);
  });

  it('does not wait when the program is there, or when no install is under way', async () => {
    const never = async (): Promise<void> => {
      throw new Error('waited');
    };
    expect(await program('valgrind', { [INSTALL_STATUS_ENV]: '/nonexistent/status.json' }, (p) => p === '/usr/bin/valgrind', never)).toBe('/usr/bin/valgrind');
    await expect(program('valgrind', {}, () => false, never)).rejects.toThrow(/the instruction-count tests need valgrind/);
  });

  it('the files that need a program start after the first six that need none', () => {
    const order = ['a*', 'b', 'c*', 'd', 'e', 'f', 'g', 'h', 'i*', 'j'];
    expect(programsLater(order, (f) => f.endsWith('*'))).toEqual(['b', 'd', 'e', 'f', 'g', 'h', 'a*', 'c*', 'i*', 'j']);
    expect(needsProgram("const perf = await program('perf');")).toBe(true);
    expect(needsProgram('const browser = await launchChromium();')).toBe(true);
    expect(needsProgram("import { program } from './helpers/system-programs.ts';")).toBe(false);
  });
});
