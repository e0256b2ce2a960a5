/** A handler that does nothing: what serving a request costs the runtime's server, beside the server's own empty-handler figure. */
export default {
  fetch(): Response {
    return new Response('');
  },
};
