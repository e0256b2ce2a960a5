/**
 * The `rtbench bisect` command that finds where a claim flipped between two
 * releases (of a runtime, or of a package on the subject's runtime): one per case the claim compares (either may have moved), with
 * the subject's flags and environment kept on the range, each case picked
 * exactly by an anchored --filter. The command parses as printed
 * (packages/cli/test/claims-views.test.ts).
 */
import type { ClaimOutcome } from '@rtbench/core/claims-schema';
import { pluginForSpec } from '@rtbench/runtime-registry';
import { parseVariant, pinsAlone, quotePart } from '@rtbench/arms';
import type { VariantSpec } from '@rtbench/runtime-registry';
import { baseVariant } from './plan.ts';

/** A word for a POSIX shell, in single quotes unless it needs none. */
function sq(word: string): string {
  return /^[A-Za-z0-9@%+=:,./_-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** RE2 text that matches `text` literally. */
function literal(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, (c) => `\\${c}`);
}

/** The range's head: a runtime's releases, or (a column of a package's versions) the package's on the subject's runtime. */
function rangeHead(release: VariantSpec, subject: VariantSpec, fromVersion: string, toVersion: string): string[] {
  const lead = pinsAlone(release) ? release.packages![0]!.name : undefined;
  if (lead) return [`${lead}@${fromVersion}..${lead}@${toVersion}`, subject.runtimeSpec];
  const plugin = pluginForSpec(release.runtimeSpec);
  return plugin?.releases ? [`${plugin.name}@${plugin.releases.tagOf(fromVersion)}..${plugin.name}@${plugin.releases.tagOf(toVersion)}`] : [];
}

export function bisectCommandFor(outcome: ClaimOutcome, release: VariantSpec, fromVersion: string | undefined, toVersion: string | undefined): string[] {
  if (!fromVersion || !toVersion) return [];
  const subject = parseVariant(baseVariant(outcome.subject.variantId));
  const head = rangeHead(release, subject, fromVersion, toVersion);
  if (!head.length) return [];
  const extra = [...subject.flags, ...Object.entries(subject.env).map(([k, v]) => `${k}=${v}`)];
  const range = [...head, ...extra].map(quotePart).join(' ');
  const cases = [...new Set([outcome.subject.caseId, outcome.other.caseId])];
  return cases.map((id) => `npx pnpm rtbench bisect ${sq(range)} ${sq(outcome.suite)} --filter ${sq(`/^${literal(id)}$/`)}`);
}
