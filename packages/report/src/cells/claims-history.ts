/**
 * When a claim flipped, across saved runs in the history's order: each check
 * (its suite, sentence, sides and parameters) followed through the runs that
 * carry it; a run that decided it the other way from the last run that
 * decided it is a flip. Undecided runs neither flip a claim nor reset it.
 * Worded here, with the sides as every claims reporter says them; the
 * history command adds the notes to its view.
 */
import type { ClaimOutcome } from '@rtbench/core/claims-schema';
import type { RunRecord } from '@rtbench/core/schema';
import { claimSides } from './claims.ts';
import type { Note } from '../views/types.ts';

function checkKey(o: ClaimOutcome): string {
  return JSON.stringify([o.suite, o.says, o.subject, o.other, o.params ?? {}]);
}

/** One note per flip, in the runs' order; `label` names a run ("run 3 (file.json)"). */
export function claimFlipNotes<R extends Pick<RunRecord, 'claims'>>(runs: readonly R[], label: (run: R, index: number) => string): Note[] {
  const last = new Map<string, { word: ClaimOutcome['word']; at: string }>();
  const notes: Note[] = [];
  runs.forEach((run, i) => {
    for (const o of run.claims?.outcomes ?? []) {
      if (o.word === 'undecided') continue;
      const key = checkKey(o);
      const before = last.get(key);
      const at = label(run, i);
      if (before && before.word !== o.word) notes.push({ level: o.word === 'broken' ? 'warning' : 'info', text: `claim flipped: ${o.suite}: ${o.says} · ${claimSides(o)}: ${before.word} in ${before.at}, ${o.word} in ${at}` });
      last.set(key, { word: o.word, at });
    }
  });
  return notes;
}
