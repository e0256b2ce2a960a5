/**
 * Different work and same work in one line each: where two variants'
 * answers first differ (the masked bodies' first differing line and each
 * variant's length), or, without that, which variants agree, by a short
 * digest; and how a request case's changing responses were proven the same.
 */
import type { RunRecord, WorkDifference } from '@rtbench/core/schema';
import { grouped } from '@rtbench/core/words';

/** Characters of a digest shown: enough to tell two apart in a line. */
const SHORT = 12;

export function differentWorkText(digests: Readonly<Record<string, string>>, where?: WorkDifference): string {
  const digit = where?.line !== undefined ? lastDigitText(where) : undefined;
  if (digit) return digit;
  if (where) {
    const variants = Object.entries(where.variants).map(([id, v]) => `${id} ${JSON.stringify(v.text)}${v.bytes !== undefined ? ` (${grouped(v.bytes)} B)` : ''}`);
    return `${where.answer}${where.line !== undefined ? `, line ${where.line}` : ''}: ${variants.join('; ')}`;
  }
  const byDigest = new Map<string, string[]>();
  for (const [id, hash] of Object.entries(digests)) byDigest.set(hash, [...(byDigest.get(hash) ?? []), id]);
  return [...byDigest].map(([hash, ids]) => `${ids.join(', ')} ${shortDigest(hash)}`).join('; ');
}

/** A digest cut to SHORT characters (each part, for "a ≠ b"). */
function shortDigest(hash: string): string {
  return hash
    .split(' ≠ ')
    .map((h) => (h.length > SHORT ? `${h.slice(0, SHORT)}…` : h))
    .join(' ≠ ');
}

/** "same work, 3 changing spans masked: 41 of 92,113 bytes". */
export function sameWorkMaskedText(p: NonNullable<RunRecord['sameWorkMasked']>[number]): string {
  return `same work, ${p.spans} changing ${p.spans === 1 ? 'span' : 'spans'} masked: ${grouped(p.maskedChars)} of ${grouped(p.bytes)} bytes`;
}

/** A number as a page prints a double, from where it starts: a sign, digits (none where a serializer drops the leading 0), a point and its decimals. */
const DECIMAL = /^-?\d*\.(\d+)(?![\d.eE])/;
/** How many units in the last place two doubles may be apart and still be one result computed two ways. */
const ULPS = 4;

/**
 * The two numbers two lines differ in, when they differ only in a double's
 * last digits (at most ULPS units in the last place apart, as two engines'
 * Math.sin or Math.cos of one argument are): the text of each, or undefined
 * when the lines differ otherwise. They are equal up to the first differing
 * character, so the number around it starts at one place in both.
 */
export function lastDigitNumbers(a: string, b: string): { a: string; b: string; decimals: number } | undefined {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  let start = i;
  while (start > 0 && /[\d.]/.test(a[start - 1]!)) start--;
  if (start > 0 && a[start - 1] === '-') start--;
  const [ma, mb] = [DECIMAL.exec(a.slice(start)), DECIMAL.exec(b.slice(start))];
  // The first difference lies in the decimals of both, after the point.
  if (!ma || !mb || i <= start + a.slice(start).indexOf('.')) return undefined;
  const [x, y] = [Number(ma[0]), Number(mb[0])];
  if (!Number.isFinite(x) || !Number.isFinite(y) || x === y || Math.sign(x) !== Math.sign(y)) return undefined;
  const ulp = 2 ** (Math.floor(Math.log2(Math.max(Math.abs(x), Math.abs(y)))) - 52);
  if (Math.abs(x - y) > ULPS * ulp) return undefined;
  return { a: ma[0], b: mb[0], decimals: Math.min(ma[1]!.length, mb[1]!.length) };
}

/**
 * The different-work line when the variants' first differing line differs
 * only in a number's last digit: the engines computed one result two ways
 * (V8 as node builds it and V8 as deno and workerd build it, or another
 * engine, round some Math functions apart), which is different output, so
 * still not the same work, said as such with the pattern that would mask
 * the last digits if the user expects it.
 */
function lastDigitText(where: WorkDifference): string | undefined {
  const groups = new Map<string, string[]>();
  for (const [id, v] of Object.entries(where.variants)) groups.set(v.text, [...(groups.get(v.text) ?? []), id]);
  if (groups.size !== 2) return undefined;
  const [[textA, idsA], [textB, idsB]] = [...groups] as [[string, string[]], [string, string[]]];
  const numbers = lastDigitNumbers(textA, textB);
  if (!numbers) return undefined;
  const keep = Math.max(1, numbers.decimals - 3);
  return `${where.answer}: a number differs in its last digit on line ${where.line} (${idsA.join(', ')} ${numbers.a}; ${idsB.join(', ')} ${numbers.b}): the engines compute it differently; --normalize '(?<=\\.\\d{${keep}})\\d+' masks it if that is expected`;
}
