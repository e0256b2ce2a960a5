/** A case whose promise never settles is told by a protocol field the host reads, not by matching its sentence. */
import { describe, expect, it } from 'vitest';
import { NEVER_SETTLES, neverSettlesError, whenLoopRunsEmpty } from '../src/execute.ts';
import { parseRuntimeMessage, type RuntimeMessage } from '../src/protocol-schema.ts';

describe('a promise that never settles', () => {
  it('crosses the protocol as a field beside the sentence shown to the user', () => {
    const parsed = parseRuntimeMessage(JSON.parse(JSON.stringify(neverSettlesError('waits'))));
    expect(parsed).toEqual({ type: 'error', caseId: 'waits', phase: 'run', message: NEVER_SETTLES, neverSettles: true });
    expect(parseRuntimeMessage({ type: 'error', phase: 'run', message: NEVER_SETTLES })).not.toHaveProperty('neverSettles');
  });

  it("is said by an entry's empty-loop listener a moment later, then the process exits 1", () => {
    const deferred: (() => void)[] = [];
    const sent: RuntimeMessage[] = [];
    const exits: number[] = [];
    const loopRanEmpty = whenLoopRunsEmpty({ later: (fn) => deferred.push(fn), emit: (m) => sent.push(m), exit: (code) => exits.push(code) });
    loopRanEmpty();
    expect(sent).toEqual([]);
    deferred[0]!();
    // Pure tests share a module instance (isolate: false), so the case it names is whichever another file left awaited.
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ type: 'error', phase: 'run', message: NEVER_SETTLES, neverSettles: true });
    expect(exits).toEqual([1]);
  });
});
