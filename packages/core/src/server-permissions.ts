/**
 * What a server a suite brings may ask of a runtime that grants access by
 * permission (deno): named in the declaration, so a framework's server gets
 * what it needs and no other program gets more. Runtimes without
 * permissions (node, bun, workerd) run the program as they always do and
 * ignore the field. Listening on 127.0.0.1 is always granted and the
 * network beyond it is not a permission a suite can ask for (runs are
 * loopback only); nor are running programs and loading native code, either
 * of which would reach it through a child or a library deno does not watch.
 */

/** The permissions a declaration may name (deno's names, less the network's, the import's, run's and ffi's). */
export const SERVER_PERMISSION_NAMES = ['read', 'write', 'env', 'sys'] as const;

/** Deno's permissions that would let a server reach beyond loopback without the network permission. */
const BEYOND_LOOPBACK: Readonly<Record<string, string>> = { run: 'a program it starts', ffi: 'native code it loads' };

export type ServerPermissionName = (typeof SERVER_PERMISSION_NAMES)[number];

/**
 * Per permission: `true` for all of it, or what it is limited to (paths for
 * read/write, variable names for env, system calls for sys such as
 * "cpus"). When declared, this is the whole grant besides loopback: a
 * permission not named is not given (env included).
 */
export type ServerPermissions = Readonly<Partial<Record<ServerPermissionName, true | readonly string[]>>>;

/** Why a declaration's permissions cannot be granted, in one clause; undefined when they can. */
export function serverPermissionsProblem(permissions: unknown): string | undefined {
  if (typeof permissions !== 'object' || permissions === null || Array.isArray(permissions)) return 'permissions are an object of permission names';
  for (const [name, value] of Object.entries(permissions)) {
    const through = BEYOND_LOOPBACK[name];
    if (through !== undefined) return `"${name}" cannot be granted to a server: ${through} could reach the network beyond loopback, which a run never grants`;
    if (!(SERVER_PERMISSION_NAMES as readonly string[]).includes(name)) return `"${name}" is not a permission a server can ask for (${SERVER_PERMISSION_NAMES.join(', ')})`;
    if (value === true) continue;
    if (!Array.isArray(value) || value.length === 0) return `permission "${name}" is true or a list of what it allows, not ${JSON.stringify(value)}`;
    // Deno reads a list from one comma-separated flag: an item holding a comma would be split into two.
    const bad = (value as unknown[]).find((item) => typeof item !== 'string' || item === '' || item.includes(',') || item.trim() !== item);
    if (bad !== undefined) return `permission "${name}" lists ${JSON.stringify(bad)}: each item is a non-empty string without a comma or surrounding spaces`;
  }
  return undefined;
}
