/**
 * The relay's work after it has read the request's fields, the same for
 * both encodings: the note checked, the upstream Request built (Headers,
 * the validated-template body), the upstream's reply parsed, and the
 * response serialized and built, a verbose error body when the upstream
 * failed. Nothing waits on I/O: the upstream's reply is bytes already in
 * hand (upstream-reply.ts), so every step is CPU the platform bills.
 */
import type { RelayFields } from './fields.ts';
import { upstreamTemplate } from './upstream.ts';
import { FAIL_HEADER, upstreamReply } from './upstream-reply.ts';

/** Notes longer than this are refused, as a relay bounds what it forwards. */
const MAX_NOTE = 60_000;
/** Control characters other than tab and newline: a note carrying one is refused. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;

const json = (value: unknown, status: number): Response => new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });

export async function relay(fields: RelayFields, request: Request): Promise<Response> {
  if (fields.note.length > MAX_NOTE || CONTROL.test(fields.note)) return json({ error: 'note refused' }, 400);
  const headers = new Headers({
    'content-type': 'application/json',
    'x-request-id': String(fields.requestId),
    'x-trace-id': fields.traceId,
    'x-user': `${fields.userId}:${fields.plan}:${fields.region}`,
  });
  const auth = request.headers.get('authorization');
  if (auth) headers.set('authorization', auth);
  const upstream = new Request(`https://upstream.internal${fields.route}`, { method: 'POST', headers, body: upstreamTemplate(fields) });
  const frames = Number(request.headers.get(FAIL_HEADER) ?? 0);
  const sent = await upstream.text();
  const reply = upstreamReply(fields, frames);
  const answer = new Response(reply.body, { status: reply.status, headers: { 'content-type': 'application/json' } });
  const parsed = (await answer.json()) as { error?: { type: string; message: string; trace: string; stack: string[]; rejected: unknown[] } } & Record<string, unknown>;
  if (parsed.error) {
    // The verbose error is passed on with what the relay knows: the tail's other cause.
    return json({ error: { status: answer.status, ...parsed.error, request: { id: fields.requestId, route: fields.route, sent: sent.length, note: fields.note.length } } }, 502);
  }
  return json({ id: parsed.id, route: fields.route, result: parsed.result, usage: parsed.usage, upstreamBytes: sent.length }, 200);
}
