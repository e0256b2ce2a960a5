/**
 * How host-timed code starts a program on a resolved variant: its runtime's
 * plug-in says how (`programs`), with the variant's binary and translated
 * engine flags.
 */
import type { ProgramCommand, ProgramOptions } from '@rtbench/host';
import type { RuntimePlugin, RuntimeTarget, TranslatedFlags } from '@rtbench/runtime-kit';

export type { ProgramCommand, ProgramOptions };

/** What code that starts a runtime needs of a resolved variant (host-timed programs, a measurer's arm). */
export interface RunnableVariant {
  id: string;
  plugin: RuntimePlugin;
  target: RuntimeTarget;
  flags: TranslatedFlags;
}

/** The command that runs `script` on a variant whose runtime runs programs as processes. */
export function programCommand(v: RunnableVariant, script: string, options: ProgramOptions = {}): ProgramCommand {
  const programs = v.plugin.programs;
  if (programs.kind !== 'process') throw new Error(`${v.plugin.displayName} serves a program, it does not run it as a command: use its programs.serve`);
  return programs.command(v.target, v.flags, script, options);
}
