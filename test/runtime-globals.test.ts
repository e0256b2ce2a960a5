/**
 * No code under packages/ names a runtime's own global (scripts/checks/runtime-globals.ts,
 * read by the structure targets). Planted here; the tree itself is checked
 * by test/structure-targets.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { runtimeGlobalFindings } from '../scripts/checks/runtime-globals.ts';

const file = (path: string, text: string) => ({ path, text });

describe("a runtime's global named outside its plug-in", () => {
  it('code that sniffs a global, a banner matched by name and words in a message are findings, at their lines', () => {
    const listen = file('packages/host-timed/src/request/listen.ts', "declare const Deno: unknown;\nif (typeof Bun !== 'undefined') serve();\n");
    const banner = file('packages/process/src/job.ts', 'const BANNER = /^(?:Node\\.js|Bun) v\\d/;\n');
    const words = file('packages/measurers/src/what.ts', "const WHAT = 'its own: Deno.serve';\n");
    expect(runtimeGlobalFindings([listen, banner, words]).map((f) => `${f.file}:${f.line} ${f.text}`)).toEqual([
      'packages/host-timed/src/request/listen.ts:1 Deno',
      'packages/host-timed/src/request/listen.ts:2 Bun',
      'packages/process/src/job.ts:1 /^(?:Node\\.js|Bun) v\\d/',
      "packages/measurers/src/what.ts:1 its own: Deno.serve",
    ]);
  });

  it('a comment, the Deno.bench format, a name that only contains the word, and the registry are not', () => {
    const comment = file('packages/core/src/clock.ts', '/** Bun.nanoseconds on Bun */\nexport const clock = 1;\n');
    const format = file('packages/adapters/src/formats.ts', "export const label = 'Deno.bench';\nconst __rtbenchDenoBench = 1;\n");
    const registry = file('packages/runtime-registry/src/registry.ts', 'const Bun = 1;\n');
    expect(runtimeGlobalFindings([comment, format, registry])).toEqual([]);
  });
});
