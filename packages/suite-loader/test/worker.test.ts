/**
 * A brought Worker read on the host, before anything runs: a wrangler
 * project's settings as wrangler reads them, every refusal one line (a
 * binding rtbench cannot stand in for, a config that does not parse, a main
 * that is missing, a request that does not parse), and the request suite
 * the Worker becomes.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { drawRequests, type RequestSuite } from '@rtbench/core';
import { importUserModule } from '@rtbench/process';
import { isWorkerTarget, locateSuite, setWorkerRequests, workerNotes } from '../src/index.ts';
import { readWranglerProject, wranglerConfigAt } from '../src/wrangler-config.ts';
import { parseRequestLine, readRequestsFile } from '../src/worker-requests.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'workers');
const at = (...parts: string[]): string => join(FIXTURES, ...parts);
const temp = (name: string, text: string): string => {
  const file = join(mkdtempSync(join(tmpdir(), 'rtbench-worker-')), name);
  writeFileSync(file, text);
  return file;
};

describe('a wrangler project', () => {
  it('is read as wrangler reads it: main, compatibility date and flags, vars, define, a build not run', () => {
    const config = wranglerConfigAt(at('wrangler-react'))!;
    expect(config).toBe(at('wrangler-react', 'wrangler.toml'));
    expect(readWranglerProject(config)).toEqual({
      configFile: config,
      name: 'react-page',
      main: at('wrangler-react', 'src', 'index.js'),
      compatibilityDate: '2025-09-01',
      compatibilityFlags: ['nodejs_compat'],
      vars: { GREETING: 'hello from vars' },
      define: { __ROWS__: '200' },
      build: 'npm run build',
    });
  });

  it.each([
    [at('wrangler-kv'), /^wrangler\.jsonc declares a KV namespace binding \(kv_namespaces: CACHE\): rtbench cannot stand in for it/],
    [at('bad-toml'), /^wrangler\.toml is not valid TOML: line 2, column \d+: /],
    [at('no-main'), /^wrangler\.json: main src\/missing\.js: no such file$/],
    [temp('wrangler.jsonc', '{ "main": "x.js", // a comment\n "vars": { "A": 1 }, }'), /^wrangler\.jsonc: main x\.js: no such file$/],
    [temp('wrangler.jsonc', '{ "main": "x.js" "name": 1 }'), /^wrangler\.jsonc is not valid JSON with comments: line 1, column \d+: CommaExpected$/],
    [temp('wrangler.toml', 'name = "x"\n'), /^wrangler\.toml names no main/],
    [temp('wrangler.toml', 'main = "w.js"\n[[d1_databases]]\nbinding = "DB"\n'), /^wrangler\.toml declares a D1 database binding \(d1_databases: DB\)/],
    [temp('wrangler.toml', 'main = "w.js"\n[[durable_objects.bindings]]\nname = "ROOM"\nclass_name = "Room"\n'), /^wrangler\.toml declares a Durable Object binding \(durable_objects: ROOM\)/],
    [temp('wrangler.toml', 'main = "w.js"\n[ai]\nbinding = "AI"\n'), /^wrangler\.toml declares Workers AI binding \(ai: AI\)/],
  ])('%s is refused in one line', (path, message) => {
    expect(() => readWranglerProject(wranglerConfigAt(path)!)).toThrow(message);
  });
});

describe('requests', () => {
  it('a request line: method, path, headers and a body from a file', () => {
    const body = temp('body.json', '{"a":1}');
    expect(parseRequestLine('GET /')).toEqual({ path: '/' });
    expect(parseRequestLine('/bench?x=1')).toEqual({ path: '/bench?x=1' });
    expect(parseRequestLine(`post /api content-type:application/json @${body}`)).toEqual({ method: 'POST', path: '/api', headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode('{"a":1}') });
  });

  it.each([
    ['GET', /^--request "GET": expected "\[METHOD\] \/path/],
    ['PATCH /x', /^--request "PATCH \/x": method PATCH is not one rtbench sends/],
    ['GET /x oops', /^--request "GET \/x oops": "oops" is neither a header/],
    ['GET /x @/no/such/file', /^--request "GET \/x @\/no\/such\/file": the body file \/no\/such\/file cannot be read \(ENOENT\)$/],
  ])('%j is refused in one line', (line, message) => {
    expect(() => parseRequestLine(line)).toThrow(message);
  });

  it('a --requests file is a mix with weights; a wrong shape is named by its path', () => {
    const file = temp('mix.json', JSON.stringify({ mix: [{ weight: 3, request: 'GET /a' }, { name: 'post', request: { method: 'POST', path: '/b', body: 'x' } }], requests: 8 }));
    expect(readRequestsFile(file)).toEqual({
      name: 'mix (mix.json)',
      mix: [
        { name: 'GET /a', weight: 3, request: { path: '/a' } },
        { name: 'post', weight: 1, request: { method: 'POST', path: '/b', body: 'x' } },
      ],
      requests: 8,
    });
    expect(() => readRequestsFile(temp('bad.json', JSON.stringify([{ weight: -1, request: 'GET /' }])))).toThrow(/^--requests .*bad\.json: at 0\.weight: /);
    expect(() => readRequestsFile(temp('bad.json', '{'))).toThrow(/^--requests .*bad\.json: is not JSON/);
  });
});

describe('a Worker becomes a request suite', () => {
  it('a module with a default export and a fetch is a Worker; a suite of its own is not', () => {
    expect(isWorkerTarget(at('clock', 'worker.js'))).toBe(true);
    expect(isWorkerTarget(at('wrangler-react'))).toBe(true);
    expect(isWorkerTarget(temp('suite.ts', "export default suite('x', () => {});\n"))).toBe(false);
  });

  it('each --request is a case; with none, GET / and a line that says so', async () => {
    const file = at('clock', 'worker.js');
    setWorkerRequests(file, { request: ['GET /a', 'POST /b'] });
    const two = locateSuite(file);
    const suite = (await importUserModule(two.entry) as { default: RequestSuite }).default;
    expect(suite.declarations.map((d) => [d.name, drawRequests(d, 1)[0]!.request])).toEqual([
      ['GET /a', { path: '/a' }],
      ['POST /b', { method: 'POST', path: '/b' }],
    ]);
    expect(workerNotes(two.entry).some((n) => n.startsWith('no --request'))).toBe(false);
    // No count fixed: each process serves until its CPU per request is steady (within the measurer's bounds).
    expect(suite.declarations.map((d) => d.requests)).toEqual([undefined, undefined]);
    setWorkerRequests(file, { request: [] });
    const one = locateSuite(file);
    expect(workerNotes(one.entry)).toContain('no --request given: each process is sent GET / (--request "GET /path", repeatable, or --requests <file> for a mix)');
    setWorkerRequests(file, { request: ['GET /a', 'GET /a'] });
    expect(() => locateSuite(file)).toThrow('--request GET /a is given twice: each request is its own case');
  });

  it("a project's define and compatibility reach its declarations, and the notes say what is not run", async () => {
    const located = locateSuite(at('wrangler-react'));
    const suite = (await importUserModule(located.entry) as { default: RequestSuite }).default;
    expect(suite.name).toBe('react-page');
    expect(suite.declarations[0]).toMatchObject({ define: { __ROWS__: '200' }, compatibility: { date: '2025-09-01', flags: ['nodejs_compat'] } });
    expect(workerNotes(located.entry)).toEqual(expect.arrayContaining([
      "wrangler.toml's build command (npm run build) is not run: rtbench bundles main (index.js) as it is",
      "the Workers runtime serves it with wrangler.toml's compatibility date 2025-09-01 and flags nodejs_compat; the other runtimes have no such setting",
    ]));
  });
});
