/**
 * A runtime that is itself the server (the Workers runtime) is told in one
 * line why it cannot serve a declaration's handler: the suite's own reason
 * (a framework app whose Workers edition cannot be built) before the
 * handler's compatibility settings; a runtime that runs a program is never
 * refused here (its brought server says so itself).
 */
import { describe, expect, it } from 'vitest';
import { handlerRefusal } from '../src/measurers/request-cpu.ts';

type ArmLike = Parameters<typeof handlerRefusal>[1];
const arm = (kind: 'server' | 'process', compatibilityProblem?: () => string | undefined): ArmLike => ({ plugin: { programs: { kind, compatibilityProblem } }, target: {} }) as unknown as ArmLike;

describe("a handler the Workers runtime cannot serve", () => {
  it("is refused with the suite's line, which comes before the compatibility's", () => {
    const refused = { handlerUnsupported: () => 'the app declares no adapter for the Workers side', compatibility: { flags: ['nodejs_compat'] } };
    expect(handlerRefusal(refused, arm('server', () => 'flags beyond it'))).toBe('the app declares no adapter for the Workers side');
    expect(handlerRefusal({ handlerUnsupported: () => undefined, compatibility: { flags: [] } }, arm('server', () => 'flags beyond it'))).toBe('flags beyond it');
    expect(handlerRefusal({ handlerUnsupported: () => undefined }, arm('server', () => 'flags beyond it'))).toBeUndefined();
  });

  it('a runtime that runs a program is not refused by it', () => {
    expect(handlerRefusal({ handlerUnsupported: () => 'no Worker' }, arm('process'))).toBeUndefined();
  });
});
