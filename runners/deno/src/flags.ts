/**
 * A deno variant's flags. Deno's own permission flags (`--allow-read`,
 * `--allow-net=127.0.0.1:8080`, `--deny-write`, `--allow-all`) are deno's:
 * they go to `deno run` as written, so a benchmark file that reads its data
 * runs with `--runtime "deno --allow-read"`, the advice deno itself gives.
 * Every other flag is V8's, and all of those go in one `--v8-flags=a,b`
 * argument. Deno splits that list on commas, so a V8 flag whose value holds a
 * comma cannot be passed and is refused here rather than split silently.
 */
import { SERVER_PERMISSION_NAMES, type ServerPermissions } from '@rtbench/core/server-permissions';
import { FlagError, splitFlag, type TranslatedFlags } from '@rtbench/runtime-kit';

const PERMISSION = /^--(?:(?:allow|deny)-(?:read|write|net|env|sys|run|ffi|import)(?:=.*)?|allow-all)$/s;

/** Whether a variant's flag is one of deno's permission flags (not a V8 flag). */
export const isDenoPermission = (flag: string): boolean => PERMISSION.test(flag);

export function translateDenoFlags(flags: readonly string[]): TranslatedFlags {
  const permissions = flags.filter(isDenoPermission);
  const v8 = flags.filter((flag) => !isDenoPermission(flag));
  for (const flag of v8) {
    splitFlag(flag);
    if (flag.includes(',')) throw new FlagError(`deno takes V8 flags as one comma-separated --v8-flags list, so "${flag}" (it holds a comma) cannot be passed`);
  }
  return { args: [...permissions, ...(v8.length ? [`--v8-flags=${v8.join(',')}`] : [])], env: {} };
}

/** The args with more V8 flags in their one `--v8-flags=` list (added when there is none). */
export function withV8Flags(args: readonly string[], more: readonly string[]): string[] {
  const at = args.findIndex((a) => a.startsWith('--v8-flags='));
  if (at < 0) return [`--v8-flags=${more.join(',')}`, ...args];
  return args.map((a, i) => (i === at ? `${a},${more.join(',')}` : a));
}

/** A brought server's declared permissions as deno's flags, in a fixed order: `--allow-read`, `--allow-env=A,B`. */
export function permissionFlags(permissions: ServerPermissions): string[] {
  return SERVER_PERMISSION_NAMES.flatMap((name) => {
    const value = permissions[name];
    if (value === undefined) return [];
    return [value === true ? `--allow-${name}` : `--allow-${name}=${value.join(',')}`];
  });
}
