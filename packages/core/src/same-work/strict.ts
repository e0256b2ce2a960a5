/**
 * Same work under --same-work strict: every answer's bytes compared, none
 * masked. What a round did is, per request name ("GET /slow"), the hash of
 * the distinct digests of its answers: how many came is not compared (a
 * round cut short by a time-out answered fewer, and says so itself), nor is
 * a request name one variant sent and got no answer to at all, as the
 * masked comparison forgives it (compare.ts answersDifference).
 */

/** Per request name, the hash of its answers' distinct digests. */
export type StrictAnswers = Readonly<Record<string, string>>;

/** A round's strict answers from its answered requests (each by name, and its answer's digest). */
export function strictAnswers(answered: readonly { request: string; digest: string }[], sha256: (text: string) => string): Record<string, string> {
  const digests = new Map<string, Set<string>>();
  for (const { request, digest } of answered) {
    const seen = digests.get(request) ?? new Set<string>();
    seen.add(digest);
    digests.set(request, seen);
  }
  // Keyed by request names, which suites write: no prototype.
  const out: Record<string, string> = Object.create(null);
  for (const request of [...digests.keys()].sort()) out[request] = sha256([...digests.get(request)!].sort().join('\n'));
  return out;
}

/** The text a strict round's digest is of: its answers by request name, in name order. */
export function strictAnswerText(answers: StrictAnswers, sha256: (text: string) => string): string {
  const lines = Object.keys(answers)
    .sort()
    .map((request) => `${request} ${answers[request]}`);
  return `answers by request, sha256 ${sha256(lines.join('\n'))}`;
}

/**
 * The first request whose answers differ between the variants (each against
 * the first), or undefined: a request one variant has no answer to is
 * forgiven where that variant's requests of that name got no whole response
 * (`unanswered`, per variant).
 */
export function strictDifference(byVariant: Readonly<Record<string, StrictAnswers>>, unanswered: Readonly<Record<string, ReadonlySet<string>>> = {}): string | undefined {
  const [first, ...rest] = Object.entries(byVariant);
  const has = (answers: StrictAnswers, request: string): boolean => Object.hasOwn(answers, request);
  for (const [otherId, other] of rest) {
    // A second variant means a first.
    const [baseId, base] = first!;
    for (const request of [...new Set([...Object.keys(base), ...Object.keys(other)])].sort()) {
      if (!has(base, request) ? unanswered[baseId]?.has(request) === true : !has(other, request) ? unanswered[otherId]?.has(request) === true : base[request] === other[request]) continue;
      return request;
    }
  }
  return undefined;
}
