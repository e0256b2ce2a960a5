/** Input checks shared by the public functions: fail loudly rather than return NaN. */

export function checkConfidence(confidence: number, where: string): number {
  if (!(confidence > 0 && confidence < 1)) {
    throw new RangeError(`${where}: confidence must be in (0, 1), got ${confidence}`);
  }
  return confidence;
}

export function checkFinite(values: readonly number[], where: string): void {
  for (const v of values) {
    if (!Number.isFinite(v)) throw new RangeError(`${where}: non-finite value ${v}`);
  }
}

export function checkPositive(values: readonly number[], where: string): void {
  for (const v of values) {
    if (!(Number.isFinite(v) && v > 0)) throw new RangeError(`${where}: values must be finite and > 0, got ${v}`);
  }
}

/** x / |scale|, with 0/0 = 0 and x/0 = Infinity, so a zero median never yields NaN. */
export function relativeTo(x: number, scale: number): number {
  if (scale === 0) return x === 0 ? 0 : Infinity;
  return x / Math.abs(scale);
}
