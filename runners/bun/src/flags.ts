/**
 * Engine flags for Bun. JavaScriptCore reads its options from environment
 * variables, which Bun takes as BUN_JSC_<option>. In rtbench's one syntax:
 *
 *   --useConcurrentJIT=false  ->  BUN_JSC_useConcurrentJIT=false
 *   --useJIT                  ->  BUN_JSC_useJIT=true
 *   --no-useJIT               ->  BUN_JSC_useJIT=false
 *   --expose-gc               ->  bun --expose-gc (a Bun option: gc() as in V8)
 *
 * JSC options are camelCase; a kebab-case name is a V8 flag, which Bun has no
 * way to take, so it is refused here instead of being ignored.
 */
import { FlagError, splitFlag, type TranslatedFlags } from '@rtbench/runtime-kit';

/** V8-style flags Bun itself understands as command-line options. */
const BUN_OPTIONS = new Set(['expose-gc']);

export function translateBunFlags(flags: readonly string[]): TranslatedFlags {
  const args: string[] = [];
  const env: Record<string, string> = {};
  for (const flag of flags) {
    let [name, value] = splitFlag(flag);
    if (BUN_OPTIONS.has(name) && value === undefined) {
      args.push(`--${name}`);
      continue;
    }
    let negated = false;
    if (name.startsWith('no-') && value === undefined) {
      name = name.slice(3);
      negated = true;
    }
    if (!/^[A-Za-z][A-Za-z0-9]*$/.test(name)) {
      throw new FlagError(
        `bun takes JavaScriptCore options (camelCase, e.g. --useConcurrentJIT=false), not V8 flags: "${flag}" has no Bun equivalent`,
      );
    }
    env[`BUN_JSC_${name}`] = negated ? 'false' : (value ?? 'true');
  }
  return { args, env };
}
