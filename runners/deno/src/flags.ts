/**
 * Engine flags for deno: all V8 flags go in one `--v8-flags=a,b` argument.
 * Deno splits that list on commas, so a flag whose value holds a comma
 * cannot be passed and is refused here rather than split silently.
 */
import { FlagError, splitFlag, type TranslatedFlags } from '@rtbench/runner-kit';

export function translateDenoFlags(flags: readonly string[]): TranslatedFlags {
  for (const flag of flags) {
    splitFlag(flag);
    if (flag.includes(',')) throw new FlagError(`deno takes V8 flags as one comma-separated --v8-flags list, so "${flag}" (it holds a comma) cannot be passed`);
  }
  return { args: flags.length ? [`--v8-flags=${flags.join(',')}`] : [], env: {} };
}

/** The args with more V8 flags in their one `--v8-flags=` list (added when there is none). */
export function withV8Flags(args: readonly string[], more: readonly string[]): string[] {
  const at = args.findIndex((a) => a.startsWith('--v8-flags='));
  if (at < 0) return [`--v8-flags=${more.join(',')}`, ...args];
  return args.map((a, i) => (i === at ? `${a},${more.join(',')}` : a));
}
