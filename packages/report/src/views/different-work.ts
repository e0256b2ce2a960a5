/**
 * Different work and same work in one line each: where two variants'
 * answers first differ (the masked bodies' first differing line and each
 * variant's length), or, without that, which variants agree, by a short
 * digest; and how a request case's changing responses were proven the same.
 */
import type { RunRecord, WorkDifference } from '@rtbench/core/schema';

/** A whole number with its thousands grouped: 92,113. */
const grouped = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Characters of a digest shown: enough to tell two apart in a line. */
const SHORT = 12;

export function differentWorkText(digests: Readonly<Record<string, string>>, where?: WorkDifference): string {
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
