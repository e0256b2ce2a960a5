/** Pins in the variant syntax (variants.ts): `pkg@version`, `pkg=/path`, an arm of packages alone, and one version per package. */
import { describe, expect, it } from 'vitest';
import { parseRuntimeList, parseVariant } from '../src/variants.ts';

describe('packages pinned in a variant', () => {
  it('reads versions, x-ranges, scoped names and local builds beside flags and environment', () => {
    expect(parseVariant('node@26 --max-semi-space-size=64 NODE_ENV=production react@19.2.0 @scope/ui@1.2.x react-dom=/src/react/build/react-dom')).toMatchObject({
      runtimeSpec: 'node@26',
      flags: ['--max-semi-space-size=64'],
      env: { NODE_ENV: 'production' },
      packages: [{ name: 'react', version: '19.2.0' }, { name: '@scope/ui', version: '1.2.x' }, { name: 'react-dom', path: '/src/react/build/react-dom' }],
    });
  });

  it('runs an arm of packages alone on node, named as written', () => {
    const spec = parseVariant('react@18.3.1');
    expect(spec).toMatchObject({ id: 'react@18.3.1', runtimeSpec: 'node', packages: [{ name: 'react', version: '18.3.1' }] });
    expect(parseRuntimeList('workerd react@19.2.0,workerd').map((s) => s.packages)).toEqual([[{ name: 'react', version: '19.2.0' }], undefined]);
  });

  it('runs an arm that starts with packages on the runtime written after them', () => {
    expect(parseVariant('react@18.3.1 workerd --expose-gc')).toMatchObject({ id: 'react@18.3.1 workerd --expose-gc', runtimeSpec: 'workerd', flags: ['--expose-gc'], packages: [{ name: 'react', version: '18.3.1' }] });
    // A flag or environment after the pins is no runtime: node runs it.
    expect(parseVariant('react@18.3.1 NODE_ENV=development')).toMatchObject({ runtimeSpec: 'node', env: { NODE_ENV: 'development' } });
  });

  it('keeps upper-case NAME=/path an environment variable, and a variant without pins has none', () => {
    const spec = parseVariant('node HOME_DIR=/tmp/x');
    expect(spec.env).toEqual({ HOME_DIR: '/tmp/x' });
    expect(spec.packages).toBeUndefined();
  });

  it('refuses two versions of one package in one arm', () => {
    expect(() => parseVariant('node react@19.1.0 react=/src/react')).toThrow('variant "node react@19.1.0 react=/src/react" pins react twice (react@19.1.0 and react=/src/react): one version of a package per arm');
  });
});
