/** The relay reading a binary frame: the body's bytes, a DataView and one TextDecoder. */
import { readFrame } from './frame.ts';
import { relay } from './relay.ts';

export default {
  async fetch(request: Request): Promise<Response> {
    return relay(readFrame(new Uint8Array(await request.arrayBuffer())), request);
  },
};
