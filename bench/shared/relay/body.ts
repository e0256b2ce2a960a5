/** The JSON body: how a client sends it, and how the relay reads it back. */
import type { RelayFields } from './fields.ts';

/** The body as it arrives: UTF-8 bytes of the JSON text (nested like a real API). */
export function encodeBody(f: RelayFields): Uint8Array<ArrayBuffer> {
  const body = {
    requestId: f.requestId,
    timestamp: f.timestamp,
    user: { id: f.userId, plan: f.plan, region: f.region },
    route: f.route,
    options: { priority: f.priority, stream: f.stream, cache: f.cache },
    scores: f.scores,
    traceId: f.traceId,
    attachment: f.attachment,
    note: f.note,
  };
  return new TextEncoder().encode(JSON.stringify(body));
}

type Json = Record<string, unknown>;

function fail(field: string): never {
  throw new TypeError(`bad request body: ${field}`);
}

const num = (o: Json, k: string): number => (typeof o[k] === 'number' ? (o[k] as number) : fail(k));
const str = (o: Json, k: string): string => (typeof o[k] === 'string' ? (o[k] as string) : fail(k));
const bool = (o: Json, k: string): boolean => (typeof o[k] === 'boolean' ? (o[k] as boolean) : fail(k));
const obj = (o: Json, k: string): Json => (typeof o[k] === 'object' && o[k] !== null ? (o[k] as Json) : fail(k));

/** Field checks a careful relay does on any parsed body (types, not contents). */
export function fieldsFromJson(parsed: unknown): RelayFields {
  if (typeof parsed !== 'object' || parsed === null) fail('body');
  const body = parsed as Json;
  const user = obj(body, 'user');
  const options = obj(body, 'options');
  const scores = body.scores;
  if (!Array.isArray(scores) || !scores.every((s) => typeof s === 'number')) fail('scores');
  return {
    requestId: num(body, 'requestId'),
    timestamp: num(body, 'timestamp'),
    userId: num(user, 'id'),
    plan: str(user, 'plan'),
    region: str(user, 'region'),
    route: str(body, 'route'),
    priority: num(options, 'priority'),
    stream: bool(options, 'stream'),
    cache: bool(options, 'cache'),
    scores: scores as number[],
    traceId: str(body, 'traceId'),
    attachment: str(body, 'attachment'),
    note: str(body, 'note'),
  };
}

/** One TextDecoder per module, as a Worker would keep it. */
const decoder = new TextDecoder();

/** What `JSON.parse(await req.text())` does, without the stream: decode, parse, check. */
export function readBody(bytes: Uint8Array): RelayFields {
  return fieldsFromJson(JSON.parse(decoder.decode(bytes)));
}
