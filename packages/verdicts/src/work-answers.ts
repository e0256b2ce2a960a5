/**
 * A request case's answers as the variant's work: its standing round's
 * masked answers, a template saved in part made whole from the packed text
 * the host saved with it (gzip, base64), so a difference past the saved
 * part is still found and named by its line.
 */
import { gunzipSync } from 'node:zlib';
import type { MaskedAnswer, RoundRecord } from '@rtbench/core/schema';
import { standingAnswers } from '@rtbench/core/same-work';
import { requestAnswers } from '@rtbench/measurer-records/readers';

const unpack = (packed: string): string => gunzipSync(Buffer.from(packed, 'base64')).toString('utf8');

export function workAnswers(rounds: readonly RoundRecord[]): readonly MaskedAnswer[] | undefined {
  return standingAnswers(rounds, requestAnswers, unpack);
}
