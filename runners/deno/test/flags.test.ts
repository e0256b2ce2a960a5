/** A deno variant's flags (pure: no deno started): deno's permission flags go to `deno run` as written, the rest to --v8-flags. */
import { describe, expect, it } from 'vitest';
import { FlagError, type RuntimeTarget } from '@rtbench/runtime-kit';
import { isDenoPermission, permissionFlags, translateDenoFlags } from '../src/flags.ts';
import { DENO_RUN_ARGS, denoRuntime } from '../src/plugin.ts';

describe('deno flags', () => {
  it("passes deno's permission flags to deno run, and V8's in one --v8-flags list", () => {
    expect(translateDenoFlags(['--allow-read'])).toEqual({ args: ['--allow-read'], env: {} });
    expect(translateDenoFlags(['--max-semi-space-size=64', '--allow-read=/data,/more', '--deny-net', '--expose-gc'])).toEqual({
      args: ['--allow-read=/data,/more', '--deny-net', '--v8-flags=--max-semi-space-size=64,--expose-gc'],
      env: {},
    });
  });

  it('knows the permission flags and nothing that merely looks like one', () => {
    for (const flag of ['--allow-read', '--allow-write=/tmp', '--allow-net=127.0.0.1:8080', '--allow-env', '--allow-sys', '--allow-run', '--allow-ffi', '--allow-import', '--allow-all', '--deny-write', '--deny-read=/etc']) {
      expect(isDenoPermission(flag), flag).toBe(true);
    }
    for (const flag of ['--allow-reading', '--allow-all=1', '--expose-gc', '--allow', '-A', '--allow-read\n--x']) expect(isDenoPermission(flag), flag).toBe(false);
  });

  it('still refuses a V8 flag whose value holds a comma', () => {
    expect(() => translateDenoFlags(['--allow-read', '--stack-size=1,2'])).toThrow(FlagError);
  });

  it("writes a brought server's declared permissions as deno's flags, in a fixed order", () => {
    expect(permissionFlags({})).toEqual([]);
    expect(permissionFlags({ env: true, sys: ['cpus'], read: ['/build', '/toolchain'] })).toEqual(['--allow-read=/build,/toolchain', '--allow-env', '--allow-sys=cpus']);
    expect(permissionFlags({ write: ['/out'], read: true })).toEqual(['--allow-read', '--allow-write=/out']);
  });
});

describe("a program's command on deno", () => {
  const target = { runtime: 'deno', spec: 'deno', binary: '/deno', source: 'npm', version: '2.9.6', engine: 'v8', engineVersion: '15.0' } as RuntimeTarget;
  const flags = { args: ['--v8-flags=--max-old-space-size=512'], env: {} };
  const command = (options: Parameters<Extract<typeof denoRuntime.programs, { kind: 'process' }>['command']>[3]) => {
    const programs = denoRuntime.programs;
    if (programs.kind !== 'process') throw new Error('deno runs programs as processes');
    return programs.command(target, flags, '/serve.mjs', options).args;
  };

  it('gives env and loopback alone when nothing is declared', () => {
    expect(command({ net: true })).toEqual([...DENO_RUN_ARGS, '--allow-net=127.0.0.1', ...flags.args, '/serve.mjs']);
  });

  it("grants a brought server what it declares and no more: the declaration replaces env's default grant, loopback stays", () => {
    const args = command({ net: true, permissions: { read: ['/build'], sys: ['cpus'] } });
    expect(args).toEqual([...DENO_RUN_ARGS.filter((a) => a !== '--allow-env'), '--allow-read=/build', '--allow-sys=cpus', '--allow-net=127.0.0.1', ...flags.args, '/serve.mjs']);
    expect(command({ net: true, permissions: { env: ['NODE_ENV'] } })).toContain('--allow-env=NODE_ENV');
    expect(command({ net: true, permissions: { env: ['NODE_ENV'] } })).not.toContain('--allow-env');
  });
});
