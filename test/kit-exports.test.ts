/** runtime-kit exports only names a plug-in imports (scripts/checks/kit-exports.ts, read by the structure targets). */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { kitExportsNoPluginUses } from '../scripts/checks/kit-exports.ts';
import { repoRoot } from './helpers/cli.ts';

let root: string | undefined;
afterEach(() => root && rmSync(root, { recursive: true, force: true }));

function tree(files: Record<string, string>): string {
  root = mkdtempSync(join(tmpdir(), 'rtbench-kit-exports-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const KIT = {
  'packages/runtime-kit/src/index.ts': "export { probe, type Target } from './probe.ts';\nexport * from './more.ts';\n",
  'packages/runtime-kit/src/probe.ts': 'export function probe() {}\nexport interface Target {}\n',
  'packages/runtime-kit/src/more.ts': 'export const hostOnly = 1;\n',
};

describe("runtime-kit's exports", () => {
  it('are each imported by a plug-in in this tree', () => {
    expect(kitExportsNoPluginUses(repoRoot)).toEqual([]);
  });

  it('name an export only the host uses, found through export *', () => {
    const planted = tree({
      ...KIT,
      'runners/one/src/plugin.ts': "import { probe } from '@rtbench/runtime-kit';\n",
      'packages/host/src/store.ts': "import { hostOnly } from '@rtbench/runtime-kit';\n",
      'test/fixtures/fifth/plugin.ts': "import type { Target } from '@rtbench/runtime-kit';\n",
    });
    expect(kitExportsNoPluginUses(planted)).toEqual(['hostOnly']);
  });

  it('count a test plug-in and a renamed import as uses', () => {
    const planted = tree({
      ...KIT,
      'runners/one/src/plugin.ts': "import { probe as p, type Target } from '@rtbench/runtime-kit';\n",
      'test/fixtures/fifth/plugin.ts': "import { hostOnly } from '@rtbench/runtime-kit';\n",
    });
    expect(kitExportsNoPluginUses(planted)).toEqual([]);
  });
});
