// @ts-check
/**
 * The CLI's bundle packed with the package (`prepack`; `postpack` removes it
 * with --clean): an installed rtbench starts from it (rtbench.mjs) as a
 * checkout starts from its own, instead of compiling its sources through tsx
 * on every start. Built by @rtbench/host's cli-bundle.ts from this
 * checkout's sources, its modules finding their places where installed
 * (packed-places.mjs).
 */
import { rmSync } from 'node:fs';
import { PACKED } from './packed-places.mjs';

if (process.argv.includes('--clean')) rmSync(PACKED, { recursive: true, force: true });
else {
  const { tsImport } = await import('tsx/esm/api');
  /** @type {typeof import('../../host/src/cli-bundle.ts')} */
  const builder = await tsImport('../../host/src/cli-bundle.ts', import.meta.url);
  await builder.buildCliBundle(PACKED, { packed: true });
}
