/**
 * One call of a Worker's handler as the loop makes it: a GET, its body read
 * to the end. Apart from loop.ts, whose suite would otherwise read as a
 * Worker (a default export that names the handler).
 */
export interface Worker {
  fetch(request: Request): Response | Promise<Response>;
}

export const callPage = async (worker: Worker): Promise<string> => (await worker.fetch(new Request('http://localhost/'))).text();
