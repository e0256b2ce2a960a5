/**
 * The requests a brought Worker is sent: `--request "POST /api
 * content-type:application/json @body.json"` (each one its own case), or
 * `--requests <file>`, a mix with weights in the shape a request suite
 * declares (one case). Every problem is one UsageError line, before anything runs.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { z } from 'zod';
import type { RequestKind, RequestShape } from '@rtbench/core';
import { UsageError } from './errors.ts';

const METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;
const REQUEST_SYNTAX = '"[METHOD] /path [header:value ...] [@body-file]", e.g. "GET /" or "POST /api content-type:application/json @body.json"';

/** One request written on the command line; `where` names it in a refusal. */
export function parseRequestLine(text: string, where = `--request ${JSON.stringify(text)}`): RequestShape {
  const tokens = text.trim().split(/\s+/).filter(Boolean);
  const method = tokens[0] && /^[A-Za-z]+$/.test(tokens[0]) ? tokens.shift()!.toUpperCase() : 'GET';
  if (!(METHODS as readonly string[]).includes(method)) throw new UsageError(`${where}: method ${method} is not one rtbench sends (${METHODS.join(', ')})`);
  const path = tokens.shift();
  if (!path?.startsWith('/')) throw new UsageError(`${where}: expected ${REQUEST_SYNTAX}`);
  const headers: Record<string, string> = {};
  let body: Uint8Array | undefined;
  for (const token of tokens) {
    if (token.startsWith('@')) {
      try {
        body = new Uint8Array(readFileSync(token.slice(1)));
      } catch (error) {
        throw new UsageError(`${where}: the body file ${token.slice(1)} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
      }
      continue;
    }
    const colon = token.indexOf(':');
    if (colon <= 0) throw new UsageError(`${where}: "${token}" is neither a header (name:value) nor a body file (@file); expected ${REQUEST_SYNTAX}`);
    headers[token.slice(0, colon).toLowerCase()] = token.slice(colon + 1);
  }
  return { ...(method !== 'GET' ? { method: method as RequestShape['method'] } : {}), path, ...(Object.keys(headers).length ? { headers } : {}), ...(body ? { body } : {}) };
}

/** A request's name in the table: its method and path. */
export function requestName(r: RequestShape): string {
  return `${r.method ?? 'GET'} ${r.path}`;
}

const RequestObject = z.strictObject({
  method: z.enum(METHODS).optional(),
  path: z.string().startsWith('/'),
  headers: z.record(z.string(), z.string()).optional(),
  body: z.string().optional(),
});
const Kind = z.strictObject({ name: z.string().min(1).optional(), weight: z.number().positive().default(1), request: z.union([z.string(), RequestObject]) });
const RequestsFile = z.union([z.array(Kind).min(1), z.strictObject({ mix: z.array(Kind).min(1), requests: z.number().int().min(1).optional() })]);

/** A --requests file: a JSON mix (a list of kinds, or `{ mix, requests }`), each kind a request line or a request object. */
export function readRequestsFile(file: string): { name: string; mix: RequestKind[]; requests?: number } {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`--requests ${file}: ${code ? `cannot be read (${code})` : `is not JSON: ${(error as Error).message}`}`);
  }
  const parsed = RequestsFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(`--requests ${file}: ${issue.path.length ? `at ${issue.path.join('.')}: ` : ''}${issue.message} (expected a list of { name, weight, request }, or { mix: [...], requests })`);
  }
  const { mix, requests } = Array.isArray(parsed.data) ? { mix: parsed.data, requests: undefined } : parsed.data;
  const kinds = mix.map((k, i): RequestKind => {
    const request = typeof k.request === 'string' ? parseRequestLine(k.request, `--requests ${file}: mix.${i}.request`) : { ...k.request };
    return { name: k.name ?? requestName(request), weight: k.weight, request };
  });
  return { name: `mix (${basename(file)})`, mix: kinds, ...(requests !== undefined ? { requests } : {}) };
}
