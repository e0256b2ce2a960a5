/** A variant's name (variants.ts): `patched: node=/long/path` is called patched in tables, notes and the page; its parts are read as without it. */
import { describe, expect, it } from 'vitest';
import { parseRuntimeList, parseVariant } from '../src/variants.ts';

const PATH = '/src/node/out/Release/node';

describe('a named variant', () => {
  it('takes its name as its id, and its runtime, flags and environment from the rest', () => {
    const plain = parseVariant(`node=${PATH} --max-semi-space-size=64 NODE_ENV=production`);
    const named = parseVariant(`patched: node=${PATH} --max-semi-space-size=64 NODE_ENV=production`);
    expect(named.id).toBe('patched');
    expect({ ...named, id: plain.id }).toEqual(plain);
    // Glued to its runtime, and in a list beside unnamed variants.
    expect(parseVariant(`patched:node=${PATH}`)).toMatchObject({ id: 'patched', runtimeSpec: `node=${PATH}` });
    expect(parseRuntimeList(`node@26,patched: node=${PATH}`).map((s) => s.id)).toEqual(['node@26', 'patched']);
  });

  it('leaves a variant without a name as written, and refuses a name with no runtime', () => {
    expect(parseVariant('node@26 --jitless').id).toBe('node@26 --jitless');
    expect(() => parseVariant('patched:')).toThrow(/names patched but no runtime after it/);
  });
});
