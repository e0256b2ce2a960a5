/**
 * The body the relay sends upstream: the same JSON text built two ways.
 * Only fields that are safe inside a JSON string without escaping are
 * forwarded (identifiers, a route, hex, base64), so a template can write them
 * as they are once they are validated. Anything that fails validation falls
 * back to JSON.stringify, so the output is always correct JSON.
 */
import type { RelayFields } from './fields.ts';

export function upstreamStringify(f: RelayFields): string {
  return JSON.stringify({
    id: f.requestId,
    user: f.userId,
    plan: f.plan,
    region: f.region,
    route: f.route,
    ts: f.timestamp,
    priority: f.priority,
    stream: f.stream,
    trace: f.traceId,
    attachment: f.attachment,
  });
}

const IDENT = /^[a-z0-9-]{1,32}$/;
const ROUTE = /^\/[a-z0-9/_-]{0,64}$/;
const HEX = /^[0-9a-f]{32}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** True when every forwarded field can go into the template unescaped. */
export function safeForTemplate(f: RelayFields): boolean {
  return (
    Number.isFinite(f.requestId) &&
    Number.isFinite(f.userId) &&
    Number.isFinite(f.timestamp) &&
    Number.isFinite(f.priority) &&
    IDENT.test(f.plan) &&
    IDENT.test(f.region) &&
    ROUTE.test(f.route) &&
    HEX.test(f.traceId) &&
    BASE64.test(f.attachment)
  );
}

export function upstreamTemplate(f: RelayFields): string {
  return safeForTemplate(f) ? templateUnchecked(f) : upstreamStringify(f);
}

/**
 * The template alone, for fields already known to be safe (validated where
 * they entered). ${number} and ${boolean} print exactly as JSON.stringify
 * prints them, for finite numbers.
 */
export function templateUnchecked(f: RelayFields): string {
  return `{"id":${f.requestId},"user":${f.userId},"plan":"${f.plan}","region":"${f.region}","route":"${f.route}","ts":${f.timestamp},"priority":${f.priority},"stream":${f.stream},"trace":"${f.traceId}","attachment":"${f.attachment}"}`;
}
