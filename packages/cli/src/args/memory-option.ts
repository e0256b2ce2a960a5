/** `--max-memory`: declared once for every command that starts runtime processes, and applied before any starts. */
import { byteSizeText, defaultMemoryBound, setMemoryBound } from '@rtbench/process/memory-bound';
import { camelName, type OptionSpec, type ParsedFlags } from './args.ts';
import { parseMemorySize } from './options.ts';

/** Taken by every command that starts runtime processes: the host stops one that holds more memory than this (@rtbench/process memory-bound.ts). */
export const MAX_MEMORY_OPTION = {
  name: 'max-memory',
  kind: 'value',
  value: 'size',
  help: `Stop a runtime process (with what it started) that holds more resident memory than this, e.g. 512MiB, ` +
    `8GiB (default ${byteSizeText(defaultMemoryBound())}: a quarter of this machine's memory, at most 4 GiB)`,
} as const satisfies OptionSpec;

/** Holds every runtime process this command starts to the bound its --max-memory names (the default otherwise). */
export function applyMemoryBound(flags: ParsedFlags): void {
  const given = flags[camelName(MAX_MEMORY_OPTION.name)];
  if (typeof given === 'string') setMemoryBound(parseMemorySize(given, `--${MAX_MEMORY_OPTION.name}`));
}
