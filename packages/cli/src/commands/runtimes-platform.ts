/**
 * `rtbench runtimes --platform <os>-<arch>`: what rtbench would use on that
 * platform (@rtbench/arms runtime-listing.ts), as text: each pinned runtime's
 * npm package there (or why there is none, and the way out), and which
 * measurers and host tools work there.
 */
import pico from 'picocolors';
import type { PlatformView } from '@rtbench/arms';
import { isPlatform, PLATFORMS, type Platform } from '@rtbench/process';
import { wrapWords } from '@rtbench/report';
import { UsageError } from '../errors.ts';

export function parsePlatform(text: string): Platform {
  if (isPlatform(text)) return text;
  throw new UsageError(`--platform ${text}: expected one of ${PLATFORMS.join(', ')}`);
}

const WIDTH = 100;

/** The view as text within 100 columns: a line per runtime, measurer and tool, the reason dimmed under one that does not work. */
export function platformViewText(view: PlatformView, colour: boolean): string {
  const pc = pico.createColors(colour);
  const indent = '    ';
  const under = (text: string) => wrapWords(text, WIDTH - indent.length).map((l) => pc.dim(indent + l));
  const specWidth = Math.max(...view.runtimes.map((r) => r.spec.length));
  const useWidth = Math.max(...[...view.measurers, ...view.hostTools].map((r) => r.name.length));
  const uses = (rows: PlatformView['measurers']) =>
    rows.flatMap((r) => [`  ${r.name.padEnd(useWidth)}  ${r.works ? 'works' : pc.red('not here')}`, ...(r.note ? under(r.note) : [])]);
  return [
    pc.bold(`On ${view.platform} (as declared; nothing looked for or installed):`),
    pc.bold('runtimes pinned on npm: the package installed there'),
    ...view.runtimes.flatMap((r) =>
      r.package
        ? [`  ${r.spec.padEnd(specWidth)}  ${r.package}${r.binaryPackage ? `, binary from ${r.binaryPackage}` : ''}`]
        : [`  ${r.spec.padEnd(specWidth)}  ${pc.red('none')}`, ...under(r.unavailable!)],
    ),
    pc.bold('measurers'),
    ...uses(view.measurers),
    pc.bold('host tools'),
    ...uses(view.hostTools),
    '',
    ...wrapWords('A runtime without a package there runs from PATH (<runtime>@system) or by path (<runtime>=/path/to/binary). On linux-x64 ' +
      '`npx pnpm install` in rtbench\'s checkout brings every pinned runtime; elsewhere it brings deno, bun and workerd ' +
      'with the package above, and Node.js is installed into the cache on first use from its package above (docs/platforms.md).', WIDTH).map((l) => pc.dim(l)),
  ].join('\n') + '\n';
}
