/**
 * The `rtbench bisect` command that finds where a claim flipped between two
 * releases: one per case the claim compares (either may have moved), with
 * the subject's flags and environment kept on the range, each case picked
 * exactly by an anchored --filter. The command parses as printed
 * (packages/cli/test/claims-views.test.ts).
 */
import type { ClaimOutcome } from '@rtbench/core/claims-schema';
import { pluginForSpec } from '@rtbench/runtime-registry';
import { parseVariant, quotePart } from '@rtbench/run';
import type { VariantSpec } from '@rtbench/runtime-kit';
import { baseVariant } from './plan.ts';

/** A word for a POSIX shell, in single quotes unless it needs none. */
function sq(word: string): string {
  return /^[A-Za-z0-9@%+=:,./_-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** RE2 text that matches `text` literally. */
function literal(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, (c) => `\\${c}`);
}

export function bisectCommandFor(outcome: ClaimOutcome, release: VariantSpec, fromVersion: string | undefined, toVersion: string | undefined): string[] {
  const plugin = pluginForSpec(release.runtimeSpec);
  if (!plugin?.releases || !fromVersion || !toVersion) return [];
  const subject = parseVariant(baseVariant(outcome.subject.variantId));
  const extra = [...subject.flags, ...Object.entries(subject.env).map(([k, v]) => `${k}=${v}`)];
  const range = [`${plugin.name}@${plugin.releases.tagOf(fromVersion)}..${plugin.name}@${plugin.releases.tagOf(toVersion)}`, ...extra].map(quotePart).join(' ');
  const cases = [...new Set([outcome.subject.caseId, outcome.other.caseId])];
  return cases.map((id) => `npx pnpm rtbench bisect ${sq(range)} ${sq(outcome.suite)} --filter ${sq(`/^${literal(id)}$/`)}`);
}
