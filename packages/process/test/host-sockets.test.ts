/**
 * The socket files a contained step must not reach (host-sockets.ts): every
 * path a process on the host bound, read from the kernel's lists, but those
 * in the step's own folders.
 */
import { createServer } from 'node:net';
import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostSocketPaths, socketPathsIn } from '../src/host-sockets.ts';

describe("a network namespace's list of Unix sockets", () => {
  it('gives each bound path once, a path with spaces whole; unbound and abstract sockets have none', () => {
    const text = [
      'Num       RefCount Protocol Flags    Type St Inode Path',
      '0000000000000000: 00000002 00000000 00010000 0001 01 21001 /run/dbus/system_bus_socket',
      '0000000000000000: 00000003 00000000 00000000 0001 03 21002',
      '0000000000000000: 00000002 00000000 00010000 0001 01 21003 @/tmp/.X11-unix/X0',
      '0000000000000000: 00000002 00000000 00010000 0001 01 21004 /srv/my service/sock',
      '0000000000000000: 00000003 00000000 00000000 0001 03 21005 /run/dbus/system_bus_socket',
      '',
    ].join('\n');
    expect(socketPathsIn(text)).toEqual(['/run/dbus/system_bus_socket', '/srv/my service/sock']);
  });

  it("finds a socket this process bound, but not one in a step's own folder", async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'rtbench-sockets-')));
    const [own, other] = [join(dir, 'build', 'x.sock'), join(dir, 'build-other.sock')];
    mkdirSync(join(dir, 'build'));
    const servers = [createServer(), createServer()];
    await Promise.all([own, other].map((path, i) => new Promise<void>((resolve) => servers[i]!.listen(path, resolve))));
    try {
      const found = hostSocketPaths([join(dir, 'build')]);
      expect(found).toContain(other);
      expect(found).not.toContain(own);
      expect(hostSocketPaths([`${join(dir, 'build')}/`])).not.toContain(own);
    } finally {
      for (const server of servers) server.close();
    }
  });
});
