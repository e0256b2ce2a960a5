/**
 * What host-timed code needs of a resolved variant: its runtime's plug-in
 * (how a plain program starts on it: `programs`), its binary and translated
 * engine flags.
 */
import type { ProgramCommand, ProgramOptions, RuntimePlugin, RuntimeTarget, TranslatedFlags } from '@rtbench/runtime-kit';

export interface HostVariant {
  id: string;
  plugin: RuntimePlugin;
  target: RuntimeTarget;
  flags: TranslatedFlags;
}

export type { ProgramCommand, ProgramOptions };

/** The command that runs `script` on a variant whose runtime runs programs as processes. */
export function programCommand(v: HostVariant, script: string, options: ProgramOptions = {}): ProgramCommand {
  const programs = v.plugin.programs;
  if (programs.kind !== 'process') throw new Error(`${v.plugin.displayName} serves a program, it does not run it as a command: use its programs.serve`);
  return programs.command(v.target, v.flags, script, options);
}
