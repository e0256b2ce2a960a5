/** The permissions a server a suite brings may declare: the names a runtime can be asked for, each all of it or a list. */
import { describe, expect, it } from 'vitest';
import { broughtServerProblem } from '../src/request.ts';
import { SERVER_PERMISSION_NAMES, serverPermissionsProblem } from '../src/server-permissions.ts';

describe('server permissions', () => {
  it('takes each permission whole or as a list of what it allows', () => {
    expect(serverPermissionsProblem({})).toBeUndefined();
    expect(serverPermissionsProblem({ read: ['/build', '/toolchain/node_modules'], sys: ['cpus'], env: true })).toBeUndefined();
    for (const name of SERVER_PERMISSION_NAMES) expect(serverPermissionsProblem({ [name]: true }), name).toBeUndefined();
  });

  it('refuses a name no runtime is asked for, the network (loopback is always given) and any other', () => {
    expect(serverPermissionsProblem({ net: true })).toMatch(/^"net" is not a permission a server can ask for \(read, write, env, sys\)$/);
    expect(serverPermissionsProblem({ import: ['example.com'] })).toMatch(/^"import" is not/);
    expect(serverPermissionsProblem({ red: true })).toMatch(/^"red" is not/);
    expect(serverPermissionsProblem(null)).toMatch(/an object/);
    expect(serverPermissionsProblem(['read'])).toMatch(/an object/);
  });

  it('refuses run and ffi, whole or listed: a child or native code could reach beyond loopback', () => {
    expect(serverPermissionsProblem({ run: true })).toBe('"run" cannot be granted to a server: a program it starts could reach the network beyond loopback, which a run never grants');
    expect(serverPermissionsProblem({ read: true, ffi: ['/lib.so'] })).toMatch(/^"ffi" cannot be granted to a server: native code it loads/);
  });

  it('refuses a value that is neither true nor a list of plain items', () => {
    expect(serverPermissionsProblem({ read: false })).toMatch(/^permission "read" is true or a list/);
    expect(serverPermissionsProblem({ read: '/build' })).toMatch(/^permission "read" is true or a list/);
    expect(serverPermissionsProblem({ env: [] })).toMatch(/^permission "env" is true or a list/);
    // deno reads a list from one comma-separated flag: an item with a comma would become two.
    expect(serverPermissionsProblem({ read: ['/a,b'] })).toMatch(/^permission "read" lists "\/a,b"/);
    expect(serverPermissionsProblem({ env: ['NODE_ENV', ''] })).toMatch(/lists ""/);
    expect(serverPermissionsProblem({ env: [' NODE_ENV'] })).toMatch(/lists " NODE_ENV"/);
    expect(serverPermissionsProblem({ sys: [1] })).toMatch(/lists 1/);
  });

  it('is asked of a brought program only', () => {
    expect(broughtServerProblem(undefined)).toBeUndefined();
    expect(broughtServerProblem({ unsupported: 'why' })).toBeUndefined();
    expect(broughtServerProblem({ program: '/serve.mjs' })).toBeUndefined();
    expect(broughtServerProblem({ program: '/serve.mjs', permissions: { read: true } })).toBeUndefined();
    expect(broughtServerProblem({ program: '/serve.mjs', permissions: { net: true } as never })).toMatch(/"net" is not/);
  });
});
