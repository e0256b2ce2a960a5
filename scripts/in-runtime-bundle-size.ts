/**
 * The size of what each runtime loads for a suite: the bundle of the
 * runtime's entry, rtbench's in-runtime harness (core's loop, protocol,
 * digest) and the suite, without its inline source map. Shows that host-only
 * code (zod, the schemas) stays out when in-runtime modules import only types:
 * `npx tsx scripts/in-runtime-bundle-size.ts [suite]` (default: bench/harness).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleSuite, repoRoot } from '@rtbench/suite-loader';
import { runtimePlugins } from '@rtbench/runtime-registry';

const suite = process.argv[2] ?? 'harness';
const rows = ['| runtime | bundle bytes (code, no source map) | contains zod |', '|---|--:|---|'];
for (const plugin of runtimePlugins()) {
  const { path } = await bundleSuite(join(repoRoot, 'bench', suite, 'index.ts'), `size-${suite}`, plugin.name, plugin.bundle);
  const text = readFileSync(path, 'utf8');
  const map = text.lastIndexOf('\n//# sourceMappingURL=');
  const code = map === -1 ? text : text.slice(0, map);
  rows.push(`| ${plugin.name} | ${Buffer.byteLength(code)} | ${/node_modules\/(\.pnpm\/)?zod/.test(code) ? 'yes' : 'no'} |`);
}
console.log(`suite: ${suite}\n${rows.join('\n')}`);
