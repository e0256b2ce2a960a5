/**
 * mitata's `do_not_optimize(value)`: the value is stored where the engine
 * must assume it is read (a slot reachable from the global object), so the
 * work that made it cannot be dropped; and the case's digest is taken from it
 * when the timed function itself returns nothing.
 */
const slot: { value: unknown } = { value: undefined };
(globalThis as Record<string, unknown>).__rtbenchDoNotOptimize = slot;

export function doNotOptimize(value: unknown): void {
  slot.value = value;
}

/** Before a case's digested call: a value another case (or an earlier call) kept is not this case's work. */
export function forgetKept(): void {
  slot.value = undefined;
}

/** What a case's digest is taken from: its return value, else what it last gave do_not_optimize(). */
export function valueForDigest(returned: unknown): unknown {
  return returned === undefined ? slot.value : returned;
}
