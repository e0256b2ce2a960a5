/**
 * Programs bundled for one runtime by esbuild, as the runners bundle suites
 * (the runner's platform, conditions and main fields), with
 * process.env.NODE_ENV = "production" so libraries such as React run their
 * production build everywhere (their dev mode is a known configuration trap).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { BundleTarget } from '@rtbench/runner-kit';
import { HANDLER_KEY } from '@rtbench/runner-workerd/host-api';

/** How the program's default export (a string) is delivered. */
export type Wrapper =
  /** node, deno, bun: print it as the first line. */
  | 'print'
  /** workerd serve: the config's main module exports globalThis[HANDLER_KEY]; it answers every request with the string. */
  | 'workerd-handler'
  /** a module for workerd's worker loader: `export default { fetch }`. */
  | 'worker-module'
  /** a server: the module's default export is started as it is (node/deno/bun) or is the fetch handler (workerd). */
  | 'server-workerd';

export const BUNDLE_DIR = join(tmpdir(), 'rtbench-host-timed');

function wrapperSource(program: string, wrapper: Wrapper): string {
  const imp = `import value from ${JSON.stringify(program)};`;
  switch (wrapper) {
    case 'print':
      return `${imp}\nconsole.log(value);\n`;
    case 'workerd-handler':
      return `${imp}\nglobalThis.${HANDLER_KEY} = { fetch: () => new Response(value) };\n`;
    case 'worker-module':
      return `${imp}\nexport default { fetch: () => new Response(value) };\n`;
    case 'server-workerd':
      return `${imp}\nglobalThis.${HANDLER_KEY} = value;\n`;
  }
}

export interface BuiltProgram {
  path: string;
  bytes: number;
}

/** Bundles `program` for a runtime; files are named by content hash, so reruns reuse them. */
export async function bundleProgram(program: string, target: BundleTarget, wrapper: Wrapper | 'none', label: string): Promise<BuiltProgram> {
  const common = {
    bundle: true,
    write: false,
    format: 'esm' as const,
    platform: target.platform,
    conditions: target.conditions,
    ...(target.mainFields ? { mainFields: target.mainFields } : {}),
    target: 'esnext',
    external: ['node:*'],
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent' as const,
    legalComments: 'none' as const,
    // CommonJS packages (react-dom's node build) call require() for builtins; an ESM bundle has none of its own.
    ...(target.platform === 'node' ? { banner: { js: "import { createRequire as __rtbenchCreateRequire } from 'node:module';\nconst require = __rtbenchCreateRequire(import.meta.url);" } } : {}),
  };
  const result =
    wrapper === 'none'
      ? await build({ ...common, entryPoints: [program] })
      : await build({ ...common, stdin: { contents: wrapperSource(program, wrapper), resolveDir: process.cwd(), sourcefile: `${label}-entry.js`, loader: 'js' } });
  const code = result.outputFiles![0]!.contents;
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
  mkdirSync(BUNDLE_DIR, { recursive: true });
  const path = join(BUNDLE_DIR, `${label.replace(/[^A-Za-z0-9._-]+/g, '_')}-${hash}.mjs`);
  if (!existsSync(path)) {
    // Write then rename: a concurrent run must never start a half-written file.
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, code);
    renameSync(tmp, path);
  }
  return { path, bytes: code.byteLength };
}
