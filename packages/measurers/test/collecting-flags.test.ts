import { describe, expect, it } from 'vitest';
import { V8_ENGINE, type EngineDescriptor, type RuntimePlugin, type TranslatedFlags } from '@rtbench/runtime-kit';
import { collectingFlags } from '../src/measurers/lockstep.ts';

/** A plug-in of this engine whose flags translate to `--v8-flags=a,b` (as deno's do). */
const pluginOf = (engine: EngineDescriptor): RuntimePlugin => ({ name: 'rt', engine, translateFlags: (flags: readonly string[]): TranslatedFlags => ({ args: flags.length ? [`--v8-flags=${flags.join(',')}`] : [], env: {} }) }) as unknown as RuntimePlugin;

describe('collectingFlags', () => {
  it("adds the engine's flags for a forced collection to the variant's, keeping the variant's environment", () => {
    const arm = { plugin: pluginOf(V8_ENGINE), variantFlags: ['--max-semi-space-size=64'], flags: { args: ['--v8-flags=--max-semi-space-size=64'], env: { NODE_ENV: 'production' } } };
    expect(collectingFlags(arm)).toEqual({ args: ['--v8-flags=--max-semi-space-size=64,--expose-gc'], env: { NODE_ENV: 'production' } });
  });

  it('adds none the variant gives already, nor any on an engine that can always collect', () => {
    const exposed = { plugin: pluginOf(V8_ENGINE), variantFlags: ['--expose-gc'], flags: { args: ['--v8-flags=--expose-gc'], env: {} } };
    expect(collectingFlags(exposed)).toBe(exposed.flags);
    const always = { plugin: pluginOf({ ...V8_ENGINE, id: 'jsc', collectFlags: undefined }), variantFlags: [], flags: { args: [], env: {} } };
    expect(collectingFlags(always)).toBe(always.flags);
  });
});
