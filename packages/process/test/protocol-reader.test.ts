/** Protocol lines among a runtime's other output: the token, the one answer, the bounds. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeLine, type Job, type RuntimeMessage } from '@rtbench/core/protocol';
import { ProtocolReader, Tail } from '../src/protocol-reader.ts';
import { sealJob } from '../src/job.ts';

const measure: Job = { protocol: 1, kind: 'measure', caseId: 'a case', options: { warmupMs: 1, timeMs: 1, minSamples: 1, maxSamples: 10, sampleMs: 0 } };
const token = sealJob(measure, {}).token;
const hello: RuntimeMessage = { type: 'hello', protocol: 1, facts: { runtime: 'deno', version: '2.9.6', engine: 'v8', engineVersion: '15.0', gcExposed: false } };
const result = (caseId = 'a case', samples = [1, 2, 3]): RuntimeMessage => ({
  type: 'result',
  caseId,
  digest: { hash: '0123456789abcdef', summary: 'number' },
  clock: { name: 'c', resolutionNs: 1, readCostNs: 1, edgeAligned: false },
  samples,
  iterationsPerSample: 1,
  warmupIterations: 0,
  async: false,
});
const line = (m: RuntimeMessage, t = token): string => `${encodeLine(m, t)}\n`;

function read(chunks: string[], job: Job = measure, maxLineChars?: number): { reader: ProtocolReader; other: Tail } {
  const other = new Tail(1 << 20);
  const reader = new ProtocolReader({ token, job, other, ...(maxLineChars ? { maxLineChars } : {}) });
  for (const c of chunks) reader.push(c);
  reader.end();
  return { reader, other };
}

describe('ProtocolReader', () => {
  it('reads messages split across chunks and keeps other lines aside', () => {
    const text = `console output\n${line(hello)}${line(result())}more`;
    const { reader, other } = read([text.slice(0, 30), text.slice(30, 31), text.slice(31)]);
    expect(reader.messages.map((m) => m.type)).toEqual(['hello', 'result']);
    expect(reader.terminal).toMatchObject({ type: 'result' });
    expect(reader.protocolErrors).toEqual([]);
    expect(other.toString()).toBe('console output\nmore\n');
  });

  it('finds a message behind a partial line flushed by buffered stdio', () => {
    const { reader, other } = read([`[1234:0x55] 12 ms: Scavenge 2.1 (3.0) -> 1.9 (4.0) MB, ${line(hello)}`]);
    expect(reader.messages.map((m) => m.type)).toEqual(['hello']);
    expect(other.toString()).toContain('Scavenge');
  });

  it('treats lines without this process\'s token as case output: a case cannot forge a result', () => {
    const forged = result('a case', [0.001]);
    const { reader, other } = read([`@@rtbench ${JSON.stringify(forged)}\n`, line(forged, sealJob(measure, {}).token), line(hello), line(result())]);
    expect(reader.messages.map((m) => m.type)).toEqual(['hello', 'result']);
    expect((reader.terminal as { samples: number[] }).samples).toEqual([1, 2, 3]);
    expect(reader.protocolErrors).toEqual([]);
    expect(other.toString()).toContain('0.001');
  });

  it('records a marked line that does not validate', () => {
    const { reader } = read([`@@rtbench ${token} {"type":"result","samples":[-1]}\n`]);
    expect(reader.messages).toEqual([]);
    expect(reader.protocolErrors).toHaveLength(1);
  });

  it('accepts one answer for the job it gave: a second answer, a wrong case, a message after the answer all break the protocol', () => {
    const error: RuntimeMessage = { type: 'error', caseId: 'a case', phase: 'teardown', message: 'x' };
    expect(read([line(hello), line(result()), line(result())]).reader.protocolErrors[0]).toMatch(/after the process's result/);
    expect(read([line(hello), line(result()), line(error)]).reader.protocolErrors[0]).toMatch(/"error" message after/);
    expect(read([line(hello), line(result('another case'))]).reader.protocolErrors[0]).toMatch(/for case "another case" from a process that was running "a case"/);
    expect(read([line(hello), line(hello)]).reader.protocolErrors[0]).toMatch(/second "hello"/);
    const warning = (caseId: string): RuntimeMessage => ({ type: 'warning', caseId, message: 'w' });
    expect(read([line(hello), line(warning('a case')), line(result())]).reader.protocolErrors).toEqual([]);
    expect(read([line(hello), line(warning('b')), line(result())]).reader.protocolErrors[0]).toMatch(/a "warning" message for case "b" from a process that was running "a case"/);
    expect(read([line(hello), line(result()), line(warning('a case'))]).reader.protocolErrors[0]).toMatch(/"warning" message after/);
    expect(read([line({ type: 'cases', cases: [] })]).reader.protocolErrors[0]).toMatch(/"cases" message in answer to a measure job/);
    const list = read([line(hello), line({ type: 'cases', cases: [] })], { protocol: 1, kind: 'list' });
    expect(list.reader.protocolErrors).toEqual([]);
    expect(list.reader.terminal?.type).toBe('cases');
  });

  it('holds a lockstep process to its conversation: one ready, then only the samples the host asked for, in order', () => {
    const lockstep: Job = { ...measure, kind: 'paced' } as Job;
    const ready: RuntimeMessage = { type: 'ready', caseId: 'a case', iterationsPerSample: 10, warmupIterations: 100, batchNs: 1e6 };
    const sample = (index: number): RuntimeMessage => ({ type: 'sample', caseId: 'a case', index, ns: 5 });
    const converse = (asked: number, messages: RuntimeMessage[], job: Job = lockstep): ProtocolReader => {
      const reader = new ProtocolReader({ token, job, other: new Tail() });
      for (let i = 0; i < asked; i++) reader.expectSample();
      for (const m of messages) reader.push(line(m));
      reader.end();
      return reader;
    };
    const good = converse(2, [hello, ready, sample(0), sample(1), result('a case', [5, 5])]);
    expect(good.protocolErrors).toEqual([]);
    // Samples reach listeners but are not held twice: the result carries them all.
    expect(good.messages.map((m) => m.type)).toEqual(['hello', 'ready', 'result']);
    expect(converse(1, [hello, ready, sample(0), sample(1)]).protocolErrors[0]).toMatch(/sample 1 that the host did not ask for/);
    expect(converse(2, [hello, ready, sample(1)]).protocolErrors[0]).toMatch(/sample 1 where sample 0 was due/);
    expect(converse(1, [hello, sample(0)]).protocolErrors[0]).toMatch(/"sample" message before "ready"/);
    expect(converse(0, [hello, ready, ready]).protocolErrors[0]).toMatch(/second "ready"/);
    expect(converse(1, [hello, ready, sample(0)], measure).protocolErrors[0]).toMatch(/"ready" message in answer to a measure job/);
  });

  it('says when a lockstep process has answered all it was asked and can only wait for the host', () => {
    const lockstep: Job = { ...measure, kind: 'paced' } as Job;
    const reader = new ProtocolReader({ token, job: lockstep, other: new Tail() });
    const states: boolean[] = [];
    const say = (m: RuntimeMessage): void => {
      reader.push(line(m));
      states.push(reader.waitingForHost);
    };
    say(hello);
    say({ type: 'ready', caseId: 'a case', iterationsPerSample: 10, warmupIterations: 100, batchNs: 1e6 });
    reader.expectSample();
    states.push(reader.waitingForHost);
    say({ type: 'sample', caseId: 'a case', index: 0, ns: 5 });
    say(result('a case', [5]));
    // Setting up, ready, asked for a sample, answered it, answered the job.
    expect(states).toEqual([false, true, false, true, false]);
    expect(new ProtocolReader({ token, job: measure, other: new Tail() }).waitingForHost).toBe(false);
  });

  it('bounds a protocol line: an oversized one is a violation, not memory the host holds', () => {
    const { reader } = read([line(hello), line(result('a case', Array.from({ length: 1000 }, (_, i) => i)))], measure, 2_000);
    expect(reader.protocolErrors[0]).toMatch(/longer than 2000 characters/);
    expect(reader.terminal).toBeUndefined();
  });

  it('reads a 40 MB line without a newline in one pass (linear: the whole line is never re-scanned)', () => {
    const other = new Tail();
    const reader = new ProtocolReader({ token, job: measure, other });
    const chunk = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 640; i++) reader.push(chunk);
    reader.push(line(hello) + line(result()));
    reader.end();
    expect(reader.messages.map((m) => m.type)).toEqual(['hello', 'result']);
    expect(other.toString().length).toBeLessThanOrEqual(8_001);
  });
});

describe('ProtocolReader, property-based', () => {
  /** Output a case might print: anything, including the marker, newlines and fake tokens. */
  const noise = fc.oneof(
    fc.string(),
    fc.constantFrom('@@rtbench ', '@@rtbench', '\n', '@@rtbench 0123 {"type":"result"}\n', '\r\n', '\u00e9\u{1F600}'),
  );

  /** Cuts a text into chunks at arbitrary places. */
  const chunked = (text: string, cuts: number[]): string[] => {
    const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
    const out: string[] = [];
    let last = 0;
    for (const p of points) {
      out.push(text.slice(last, p));
      last = p;
    }
    out.push(text.slice(last));
    return out;
  };

  it('finds exactly the messages with the token, however the stream is chunked and whatever surrounds them', () => {
    fc.assert(
      fc.property(fc.array(noise, { maxLength: 8 }), fc.array(noise, { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 12 }), (before, between, cuts) => {
        // Our lines start on a fresh line or after a partial one; noise that ends with the token's prefix could merge with ours, so end it with a newline.
        const text = `${before.join('')}\n${line(hello)}${between.join('')}\n${line(result())}`;
        const { reader } = read(chunked(text, cuts));
        expect(reader.messages.map((m) => m.type)).toEqual(['hello', 'result']);
        expect(reader.protocolErrors).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws and never accepts a message from output that lacks the token', () => {
    fc.assert(
      fc.property(fc.array(noise, { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 12 }), (parts, cuts) => {
        const text = parts.join('').split(`@@rtbench ${token}`).join('@@rtbench');
        const { reader } = read(chunked(text, cuts));
        expect(reader.messages).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('passes every byte of other output through to the side channel, in order, whatever the chunking', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: fc.constantFrom('a', '@', 'r', ' ', '\n', 'b') }), { maxLength: 20 }), fc.array(fc.nat(), { maxLength: 12 }), (parts, cuts) => {
        const text = parts.join('');
        const { other } = read(chunked(text, cuts));
        const expected = text.split('\n').filter((l) => l.length > 0).map((l) => `${l}\n`).join('');
        expect(other.toString()).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe('ProtocolReader on a serve job (a warm process, many cases)', () => {
  const serve: Job = { protocol: 1, kind: 'serve', options: { warmupMs: 1, timeMs: 1, minSamples: 1, maxSamples: 10, sampleMs: 0 } };
  const ready = (caseId: string): RuntimeMessage => ({ type: 'ready', caseId, iterationsPerSample: 1, warmupIterations: 3, batchNs: 10 });
  const sample = (caseId: string, index: number): RuntimeMessage => ({ type: 'sample', caseId, index, ns: 5, spanNs: 7 });

  it('takes one answer per case the host opened, each in a lockstep job\'s order, and never a final answer', () => {
    const other = new Tail();
    const reader = new ProtocolReader({ token, job: serve, other });
    reader.push(line(hello));
    for (const id of ['a', 'b']) {
      reader.openCase(id);
      reader.push(line(ready(id)));
      reader.expectSample();
      reader.push(line(sample(id, 0)));
      reader.push(line(result(id, [5])));
      expect(reader.currentAnswer).toMatchObject({ type: 'result', caseId: id });
    }
    expect(reader.protocolErrors).toEqual([]);
    expect(reader.terminal).toBeUndefined();
    expect(reader.messages.map((m) => m.type)).toEqual(['hello', 'ready', 'result', 'ready', 'result']);
  });

  it('waits for the host between cases and between a case\'s commands, and not once its input is closed', () => {
    const reader = new ProtocolReader({ token, job: serve, other: new Tail() });
    reader.push(line(hello));
    const states = [reader.waitingForHost];
    reader.openCase('a');
    states.push(reader.waitingForHost);
    reader.push(line(ready('a')));
    states.push(reader.waitingForHost);
    reader.expectSample();
    states.push(reader.waitingForHost);
    reader.push(line(sample('a', 0)));
    reader.push(line(result('a', [5])));
    states.push(reader.waitingForHost);
    reader.closeInput();
    states.push(reader.waitingForHost);
    expect(states).toEqual([true, false, true, false, true, false]);
  });

  it('refuses messages between cases, for another case, or a sample it did not ask for', () => {
    const reader = new ProtocolReader({ token, job: serve, other: new Tail() });
    reader.push(line(hello));
    reader.push(line(ready('a')));
    reader.openCase('a');
    reader.push(line(ready('b')));
    reader.push(line(ready('a')));
    reader.push(line(sample('a', 0)));
    reader.push(line(result('a')));
    reader.push(line(result('a')));
    expect(reader.protocolErrors).toEqual([
      'a "ready" message before the host asked for a case',
      'a "ready" message for case "b" from a process that was running "a"',
      'sample 0 that the host did not ask for',
      'a "result" message after the result of case "a" (one answer per case)',
    ]);
  });

  it('after the host closed the input, takes only a failing teardown of a case it opened, as a closing error', () => {
    const reader = new ProtocolReader({ token, job: serve, other: new Tail() });
    reader.push(line(hello));
    reader.openCase('a');
    reader.push(line(ready('a')));
    reader.expectSample();
    reader.push(line(sample('a', 0)));
    reader.push(line(result('a', [5])));
    reader.closeInput();
    const teardown = (caseId: string): RuntimeMessage => ({ type: 'error', caseId, phase: 'teardown', message: 'not drained' });
    reader.push(line(teardown('a')));
    reader.push(line(teardown('b')));
    reader.push(line({ type: 'error', caseId: 'a', phase: 'run', message: 'late' }));
    reader.push(line(ready('a')));
    expect(reader.closingErrors).toEqual([teardown('a')]);
    expect(reader.currentAnswer).toMatchObject({ type: 'result', caseId: 'a' });
    expect(reader.protocolErrors).toEqual([
      'a "error" message after the host closed the process\'s input (only a kept case\'s failing teardown may follow)',
      'a "error" message after the host closed the process\'s input (only a kept case\'s failing teardown may follow)',
      'a "ready" message after the host closed the process\'s input (only a kept case\'s failing teardown may follow)',
    ]);
  });
});
