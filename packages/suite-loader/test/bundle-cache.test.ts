/** The bundle cache: a file is reused only while it holds the bytes its name promises. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { describe, expect, it } from 'vitest';
import { bundleSuite } from '@rtbench/suite-loader';
import { fixture } from '../../../test/helpers/cli.ts';
import { pluginNamed } from '@rtbench/runtime-registry';

const nodeRuntime = pluginNamed('node')!;
// The tiny fixture bundled under a name of its own (.rtbench-cache/bundles/bundle-cache-test/): the damage
// below is not seen by other files that run the tiny fixture at the same time.
const NAME = 'bundle-cache-test';

describe('bundleSuite', () => {
  it('rewrites a cached bundle that was changed or cut short, instead of running it', async () => {
    const first = await bundleSuite(fixture('tiny'), NAME, 'node', nodeRuntime.bundle);
    const good = readFileSync(first.path, 'utf8');
    for (const damage of [good.slice(0, good.length >> 1), `${good}\nthrow new Error('edited');\n`]) {
      writeFileSync(first.path, damage);
      const again = await bundleSuite(fixture('tiny'), NAME, 'node', nodeRuntime.bundle);
      expect(again).toEqual(first);
      expect(readFileSync(again.path, 'utf8')).toBe(good);
    }
    expect(first.path).toMatch(new RegExp(`/bundles/${NAME}/node-${first.hash}\\.mjs$`));
  });

  it('keeps the source map beside the bundle, not in it, and the map places the suite\'s lines', async () => {
    const bundle = await bundleSuite(fixture('tiny'), NAME, 'deno', nodeRuntime.bundle);
    const code = readFileSync(bundle.path, 'utf8');
    expect(code).not.toContain('sourceMappingURL');
    expect(existsSync(`${bundle.path}.map`)).toBe(true);
    const map = new SourceMap(JSON.parse(readFileSync(`${bundle.path}.map`, 'utf8')));
    const lines = code.split('\n');
    const generated = lines.findIndex((l) => l.startsWith('function sumTo('));
    expect(generated).toBeGreaterThanOrEqual(0);
    const entry = map.findEntry(generated, 0) as { originalSource?: string; originalLine?: number };
    expect(entry.originalSource).toMatch(/test\/fixtures\/tiny\/index\.ts$/);
    expect(entry.originalLine).toBe(3);
  });
});
