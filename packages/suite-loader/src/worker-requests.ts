/**
 * The requests a brought Worker is sent: `--request "POST /api
 * content-type:application/json @body.json"` (each one its own case), or
 * `--requests <file>`, a mix with weights in the shape a request suite
 * declares (one case). Every problem is one UsageError line, before anything runs.
 */
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { z } from 'zod';
import { compareHeadersProblem, MAX_REQUESTS_PER_PROCESS } from '@rtbench/core/request';
import { type RequestKind, type RequestShape } from '@rtbench/core';
import { normalizePatternsProblem } from '@rtbench/core/same-work';
import { UsageError } from '@rtbench/core/usage-error';

/** The largest body file a request is sent with, and the largest --requests file read. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;
const MAX_REQUESTS_FILE_BYTES = 16 * 1024 * 1024;
/** The largest weight a kind of a mix may have: their sum must stay a number a draw can divide. */
const MAX_WEIGHT = 1e9;

/** A header name as HTTP writes one (a token), and a value with no control character but tab (fetch refuses them on every request). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;

/** Why a header cannot be sent, or undefined when it can. */
function headerProblem(name: string, value: string): string | undefined {
  if (!HEADER_NAME.test(name)) return `header name ${JSON.stringify(name)} is not a token HTTP allows`;
  if (CONTROL.test(value)) return `header ${name}'s value ${JSON.stringify(value)} holds a control character, which no request can carry`;
  return undefined;
}

/**
 * The whole of a regular file of at most `max` bytes, or why not: read from
 * one open descriptor, so what is checked is what is read.
 */
function readBoundedFile(file: string, max: number): Uint8Array | { problem: string } {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    return { problem: `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { problem: 'is not a regular file' };
    if (stat.size > max) return { problem: `is ${stat.size} bytes, more than the ${max} rtbench reads` };
    return new Uint8Array(readFileSync(fd));
  } catch (error) {
    return { problem: `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  } finally {
    closeSync(fd);
  }
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;
const REQUEST_SYNTAX = '"[METHOD] /path [header:value ...] [@body-file]", e.g. "GET /" or "POST /api content-type:application/json @body.json"';

/** One request written on the command line; `where` names it in a refusal. */
export function parseRequestLine(text: string, where = `--request ${JSON.stringify(text)}`): RequestShape {
  // Split on spaces and tabs only: any other control character stays in its token, to be refused there.
  const tokens = text.trim().split(/[ \t]+/).filter(Boolean);
  const method = tokens[0] && /^[A-Za-z]+$/.test(tokens[0]) ? tokens.shift()!.toUpperCase() : 'GET';
  if (!(METHODS as readonly string[]).includes(method)) throw new UsageError(`${where}: method ${method} is not one rtbench sends (${METHODS.join(', ')})`);
  const path = tokens.shift();
  if (!path?.startsWith('/')) throw new UsageError(`${where}: expected ${REQUEST_SYNTAX}`);
  if (CONTROL.test(path)) throw new UsageError(`${where}: the path ${JSON.stringify(path)} holds a control character, which no request can carry`);
  const headers: Record<string, string> = {};
  let body: Uint8Array | undefined;
  for (const token of tokens) {
    if (token.startsWith('@')) {
      const read = readBoundedFile(token.slice(1), MAX_BODY_BYTES);
      if ('problem' in read) throw new UsageError(`${where}: the body file ${token.slice(1)} ${read.problem}`);
      body = read;
      continue;
    }
    const colon = token.indexOf(':');
    if (colon <= 0) throw new UsageError(`${where}: "${token}" is neither a header (name:value) nor a body file (@file); expected ${REQUEST_SYNTAX}`);
    const name = token.slice(0, colon).toLowerCase();
    const problem = headerProblem(name, token.slice(colon + 1));
    if (problem) throw new UsageError(`${where}: ${problem}`);
    headers[name] = token.slice(colon + 1);
  }
  return { ...(method !== 'GET' ? { method: method as RequestShape['method'] } : {}), path, ...(Object.keys(headers).length ? { headers } : {}), ...(body ? { body } : {}) };
}

/** A request's name in the table: its method and path. */
export function requestName(r: RequestShape): string {
  return `${r.method ?? 'GET'} ${r.path}`;
}

const RequestObject = z.strictObject({
  method: z.enum(METHODS).optional(),
  path: z.string().startsWith('/').regex(/^[^\u0000-\u001f\u007f]*$/, 'a path holds no control character'),
  headers: z.record(z.string(), z.string()).optional(),
  body: z.string().optional(),
});
const Kind = z.strictObject({ name: z.string().min(1).optional(), weight: z.number().positive().max(MAX_WEIGHT).default(1), request: z.union([z.string(), RequestObject]) });
const RequestsFile = z.union([
  z.array(Kind).min(1),
  z.strictObject({
    mix: z.array(Kind).min(1),
    requests: z.number().int().min(1).max(MAX_REQUESTS_PER_PROCESS).optional(),
    compareHeaders: z.array(z.string()).optional(),
    normalize: z.array(z.string()).optional(),
  }),
]);

/** What a --requests file declares of how answers are compared: headers besides status, content type and location, and patterns normalized away. */
export interface AnswerRules {
  compareHeaders?: string[];
  normalize?: string[];
}

/** A --requests file: a JSON mix (a list of kinds, or `{ mix, requests, compareHeaders, normalize }`), each kind a request line or a request object. */
export function readRequestsFile(file: string): { name: string; mix: RequestKind[]; requests?: number } & AnswerRules {
  const read = readBoundedFile(file, MAX_REQUESTS_FILE_BYTES);
  if ('problem' in read) throw new UsageError(`--requests ${file} ${read.problem}`);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(read));
  } catch (error) {
    throw new UsageError(`--requests ${file}: is not JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  const parsed = RequestsFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(`--requests ${file}: ${issue.path.length ? `at ${issue.path.join('.')}: ` : ''}${issue.message} (expected a list of { name, weight, request }, or { mix: [...], requests, compareHeaders, normalize })`);
  }
  const { mix, requests, compareHeaders, normalize } = Array.isArray(parsed.data) ? { mix: parsed.data } : parsed.data;
  const rules = answerRules(`--requests ${file}: `, compareHeaders, normalize);
  const kinds = mix.map((k, i): RequestKind => {
    const where = `--requests ${file}: mix.${i}.request`;
    const request = typeof k.request === 'string' ? parseRequestLine(k.request, where) : { ...k.request };
    for (const [name, value] of Object.entries(request.headers ?? {})) {
      const problem = headerProblem(name, value);
      if (problem) throw new UsageError(`${where}: ${problem}`);
    }
    if (typeof request.body === 'string' && new TextEncoder().encode(request.body).byteLength > MAX_BODY_BYTES) throw new UsageError(`${where}: its body is more than the ${MAX_BODY_BYTES} bytes rtbench sends`);
    return { name: k.name ?? requestName(request), weight: k.weight, request };
  });
  return { name: `mix (${basename(file)})`, mix: kinds, ...(requests !== undefined ? { requests } : {}), ...rules };
}

/** Headers to compare and patterns to normalize, checked (each problem one UsageError line, after `where`); absent when empty. */
export function answerRules(where: string, compareHeaders: readonly string[] = [], normalize: readonly string[] = []): AnswerRules {
  const headers = compareHeadersProblem(compareHeaders);
  if (headers) throw new UsageError(`${where}compareHeaders: ${headers}`);
  const patterns = normalizePatternsProblem(normalize);
  if (patterns) throw new UsageError(`${where}${patterns}`);
  return { ...(compareHeaders.length ? { compareHeaders: compareHeaders.map((h) => h.toLowerCase()) } : {}), ...(normalize.length ? { normalize: [...normalize] } : {}) };
}
