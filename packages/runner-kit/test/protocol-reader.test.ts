/** Protocol lines among a runtime's other output. */
import { describe, expect, it } from 'vitest';
import { encodeLine } from '@rtbench/core/protocol';
import { ProtocolReader, Tail } from '../src/protocol-reader.ts';

const hello = encodeLine({ type: 'hello', protocol: 1, facts: { runtime: 'deno', version: '2.9.6', engine: 'v8', engineVersion: '15.0', gcExposed: false } });

describe('ProtocolReader', () => {
  it('reads messages split across chunks and keeps other lines aside', () => {
    const other = new Tail();
    const reader = new ProtocolReader(other);
    reader.push(`console output\n${hello.slice(0, 20)}`);
    reader.push(`${hello.slice(20)}\nmore`);
    reader.end();
    expect(reader.messages.map((m) => m.type)).toEqual(['hello']);
    expect(other.toString()).toBe('console output\nmore\n');
  });

  it('finds a message behind a partial line flushed by buffered stdio', () => {
    const other = new Tail();
    const reader = new ProtocolReader(other);
    reader.push(`[1234:0x55] 12 ms: Scavenge 2.1 (3.0) -> 1.9 (4.0) MB, ${hello}\n`);
    expect(reader.messages.map((m) => m.type)).toEqual(['hello']);
    expect(other.toString()).toContain('Scavenge');
  });

  it('records a marked line that does not validate', () => {
    const reader = new ProtocolReader(new Tail());
    reader.push('@@rtbench {"type":"result","samples":[-1]}\n');
    expect(reader.messages).toEqual([]);
    expect(reader.protocolErrors).toHaveLength(1);
  });
});
