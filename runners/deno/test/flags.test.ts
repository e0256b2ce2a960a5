/** A deno variant's flags (pure: no deno started): deno's permission flags go to `deno run` as written, the rest to --v8-flags. */
import { describe, expect, it } from 'vitest';
import { FlagError } from '@rtbench/runtime-kit';
import { isDenoPermission, translateDenoFlags } from '../src/flags.ts';

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
});
