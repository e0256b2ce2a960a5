/**
 * `--compare <variant> <variant> [...]`: the arms of a comparison, in the one
 * variant syntax (@rtbench/arms variants.ts). Each argument after --compare is a variant
 * (quote a variant that has flags); commas also separate variants, as in
 * --runtime. The first is the baseline.
 */
import { UsageError } from '../errors.ts';
import { COMPARE_USAGE } from './usage.ts';
import { listSuites } from '@rtbench/suite-loader';
import { numberRepeats, parseVariant, quotePart, splitVariantList, VARIANT_SYNTAX } from '@rtbench/arms';
import type { VariantSpec } from '@rtbench/runtime-registry';

/** Parses the arms; the same variant twice is allowed (@rtbench/arms variants.ts numberRepeats). */
export function parseCompareArms(args: readonly string[]): VariantSpec[] {
  // Commas separate variants, except inside quotes (@rtbench/arms variants.ts).
  const texts = args.flatMap((a) => splitVariantList(a).map((parts) => parts.map(quotePart).join(' ')));
  if (texts.length < 2) {
    throw new UsageError(`--compare needs two or more variants, the baseline first: ${COMPARE_USAGE}\nVariant syntax: ${VARIANT_SYNTAX}`);
  }
  const suites = new Set(listSuites().map((s) => s.name));
  return numberRepeats(texts.map((text) => {
    if (suites.has(text)) throw new UsageError(`"${text}" is a suite, not a variant: put the suite before --compare (${COMPARE_USAGE})`);
    let spec: VariantSpec;
    try {
      spec = parseVariant(text);
    } catch (error) {
      // Every variant error shows the syntax (unknown-runtime errors list the runtimes only).
      const message = (error as Error).message;
      throw new UsageError(message.includes('Syntax:') ? message : `${message}\nVariant syntax: ${VARIANT_SYNTAX}`);
    }
    return spec;
  }));
}
