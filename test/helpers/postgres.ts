/**
 * A throwaway PostgreSQL server for a test: a cluster made by `initdb` in a
 * fresh folder, started by `pg_ctl` on 127.0.0.1 at a port chosen at run
 * time (its socket in the same folder), trusting local connections; stopped
 * and removed by `stop`. Debian's server programs (the test set-up installs
 * them: system-programs.ts), or those in the folder RTBENCH_POSTGRES names.
 * PostgreSQL refuses to run as root: as root, its programs run as the
 * `postgres` user Debian's package made, in a folder under /tmp (the test
 * run's own temporary folder is closed to other users).
 */
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { program } from './system-programs.ts';

interface Cluster {
  /** A connection URL for its `postgres` database. */
  url: string;
  stop(): void;
}

/** The folder holding initdb and pg_ctl: the variable's, or Debian's newest version's. */
function serverBin(env: NodeJS.ProcessEnv = process.env): string {
  if (env.RTBENCH_POSTGRES) return env.RTBENCH_POSTGRES;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin/initdb'))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error(`the PostgreSQL store test needs Debian's postgresql (initdb under ${root}/<version>/bin); install it with \`sudo apt-get install -y postgresql\`, or name a folder holding initdb and pg_ctl with RTBENCH_POSTGRES`);
  return join(root, newest, 'bin');
}

/** A port free on 127.0.0.1 now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function startCluster(): Promise<Cluster> {
  await program('postgres');
  const bin = serverBin();
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(asRoot ? '/tmp' : tmpdir(), 'rtbench-pg-'));
  const data = join(dir, 'data');
  const run = (tool: string, args: string[]): void => {
    const command = join(bin, tool);
    const r = asRoot ? spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8' }) : spawnSync(command, args, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${tool} ${args.join(' ')} failed (${r.error?.message ?? `exit ${r.status}`}): ${`${r.stdout}${r.stderr}`.trim().split('\n').slice(-5).join(' | ')}`);
  };
  const stop = (): void => {
    try {
      if (existsSync(join(data, 'postmaster.pid'))) run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  try {
    mkdirSync(data);
    if (asRoot) {
      const [uid, gid] = ['-u', '-g'].map((flag) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim()));
      chownSync(dir, uid!, gid!);
      chownSync(data, uid!, gid!);
    }
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'rtbench', '-E', 'UTF8', '--locale=C', '--no-sync']);
    const port = await freePort();
    const log = join(dir, 'server.log');
    try {
      run('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start']);
    } catch (error) {
      throw new Error(`${(error as Error).message}; the server said: ${existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').slice(-3).join(' | ') : 'nothing'}`);
    }
    return { url: `postgres://rtbench@127.0.0.1:${port}/postgres`, stop };
  } catch (error) {
    stop();
    throw error;
  }
}

/** A cluster for the calling test file: started before its tests, stopped after them; the getter gives it to a test. */
export function clusterForFile(): () => Cluster {
  let cluster: Cluster | undefined;
  beforeAll(async () => {
    cluster = await startCluster();
  }, 120_000);
  afterAll(() => cluster?.stop());
  return () => {
    if (!cluster) throw new Error('the PostgreSQL cluster did not start');
    return cluster;
  };
}
