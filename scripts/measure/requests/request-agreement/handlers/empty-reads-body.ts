/** Reads the body and answers its length: the steady handler without its work. */
export default {
  async fetch(request: Request): Promise<Response> {
    const body = await request.text();
    return new Response(`${body.length}`);
  },
};
