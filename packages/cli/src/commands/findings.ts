/** `rtbench findings [folder]`: docs/findings.md from a claims run (default: the newest under results/). */
import { relative } from 'node:path';
import { claimsView, renderFindings } from '@rtbench/report';
import { writeFileAtomically } from '@rtbench/runtime-kit';
import { info, type QuietFlag } from '../info.ts';
import { isFolder, latestClaimsFolder, loadClaimsFolder } from '../claims/saved.ts';
import { UsageError } from '../errors.ts';
import { assertWritableOutput } from '../results-file.ts';

export function findingsCommand(folder: string | undefined, flags: QuietFlag & { output?: string }): number {
  const dir = folder ?? latestClaimsFolder();
  if (!isFolder(dir)) throw new UsageError(`${dir} is not a folder of claims runs (rtbench claims --save <folder>)`);
  if (flags.output !== undefined) assertWritableOutput(flags.output, '--output');
  const text = `${renderFindings(claimsView(loadClaimsFolder(dir)), relative(process.cwd(), dir) || '.')}\n`;
  if (flags.output === undefined) process.stdout.write(text);
  else {
    writeFileAtomically(flags.output, text);
    info(flags, `wrote ${flags.output}`);
  }
  return 0;
}
