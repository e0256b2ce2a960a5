/**
 * The two routes every server answers, written once as a fetch handler (each
 * runtime's own server serves it, as its plug-in declares; where there is
 * none, node:http has its own in node-server.ts):
 *
 *   GET  /      -> "Hello, world!"
 *   POST /echo  -> the JSON body parsed and serialized again
 */
export const HELLO = 'Hello, world!';

export async function handle(request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (request.method === 'GET' && url.pathname === '/') return new Response(HELLO, { headers: { 'content-type': 'text/plain' } });
  if (request.method === 'POST' && url.pathname === '/echo') {
    let parsed: unknown;
    try {
      parsed = await request.json();
    } catch {
      return new Response('bad json', { status: 400 });
    }
    return new Response(JSON.stringify(parsed), { headers: { 'content-type': 'application/json' } });
  }
  return new Response('not found', { status: 404 });
}

/** The handler module each runtime's server serves. */
export default { fetch: handle };
