/** The relay's two encodings must carry the same fields, and its two writers emit the same text. */
import { describe, expect, it } from 'vitest';
import { encodeBody, readBody } from '../../shared/relay/body.ts';
import { makeFields, REQUESTS } from '../../shared/relay/fields.ts';
import { encodeFrame, readFrame } from '../../shared/relay/frame.ts';
import { safeForTemplate, upstreamStringify, upstreamTemplate } from '../../shared/relay/upstream.ts';

const requests = Array.from({ length: REQUESTS }, (_, i) => makeFields(1000 + i));

describe('request-relay encodings', () => {
  it('the JSON body is about 1.6 KB', () => {
    for (const f of requests) {
      const size = encodeBody(f).length;
      expect(size).toBeGreaterThan(1500);
      expect(size).toBeLessThan(1750);
    }
  });

  it('the binary frame and the JSON body decode to the same fields', () => {
    for (const f of requests) {
      expect(readFrame(encodeFrame(f))).toStrictEqual(f);
      expect(readBody(encodeBody(f))).toStrictEqual(f);
    }
  });

  it('the notes carry non-ASCII text, so the frame relies on UTF-16 lengths', () => {
    expect(requests.some((f) => new TextEncoder().encode(f.note).length !== f.note.length)).toBe(true);
  });

  it('rejects a frame whose text region is cut short, and a body with a wrong type', () => {
    const frame = encodeFrame(requests[0]!);
    expect(() => readFrame(frame.subarray(0, frame.length - 1))).toThrow(/text length/);
    const body = JSON.parse(new TextDecoder().decode(encodeBody(requests[0]!))) as Record<string, unknown>;
    body.route = 42;
    expect(() => readBody(new TextEncoder().encode(JSON.stringify(body)))).toThrow(/route/);
  });
});

describe('request-relay upstream body', () => {
  it('the template writes exactly what JSON.stringify writes', () => {
    for (const f of requests) {
      expect(safeForTemplate(f)).toBe(true);
      expect(upstreamTemplate(f)).toBe(upstreamStringify(f));
      expect(JSON.parse(upstreamTemplate(f))).toMatchObject({ id: f.requestId, attachment: f.attachment });
    }
  });

  it('falls back to JSON.stringify when a field is not safe to write unescaped', () => {
    const f = { ...requests[0]!, region: 'eu"west' };
    expect(safeForTemplate(f)).toBe(false);
    expect(upstreamTemplate(f)).toBe(upstreamStringify(f));
    expect(JSON.parse(upstreamTemplate(f)).region).toBe('eu"west');
  });
});
