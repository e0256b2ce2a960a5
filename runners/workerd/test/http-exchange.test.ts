/**
 * A line the host sends to a workerd job leaves in the same tick, not on the
 * next one: the host's own work right after opening a case (a save of the
 * run) must not hold the case's command back while the runtimes on pipes
 * already set it up. The listener runs on a thread of its own and raises a
 * shared flag when the line arrives; this thread blocks on that flag without
 * returning to its event loop, so only a line already handed to the kernel
 * can raise it.
 */
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { openJobExchange } from '../src/http.ts';

/** A loopback listener on its own thread: says its port, then 'headers' once the request's head has arrived, and sets flag[0] to 1 once `line` has. */
const LISTENER = `
const { parentPort, workerData } = require('node:worker_threads');
const net = require('node:net');
const flag = new Int32Array(workerData.flag);
const server = net.createServer((socket) => {
  let text = '';
  let head = false;
  socket.on('data', (chunk) => {
    text += chunk.toString('latin1');
    if (!head && text.includes('\\r\\n\\r\\n')) {
      head = true;
      parentPort.postMessage('headers');
    }
    if (text.includes(workerData.line)) {
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
    }
  });
  socket.on('error', () => {});
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
`;

let listener: Worker | undefined;
afterEach(async () => {
  await listener?.terminate();
  listener = undefined;
});

function message(worker: Worker): Promise<unknown> {
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

describe("a workerd job's exchange", () => {
  it('hands a line to the kernel before the sending tick ends', async () => {
    const line = 'case "one" keep';
    const flag = new Int32Array(new SharedArrayBuffer(4));
    listener = new Worker(LISTENER, { eval: true, workerData: { flag: flag.buffer, line } });
    const port = (await message(listener)) as number;
    const headers = message(listener);
    const exchange = openJobExchange(port, () => {});
    expect(await headers).toBe('headers');
    exchange.send(line);
    // Blocks this thread: a line still corked in the socket would only leave after the wait, which then times out.
    const waited = Atomics.wait(flag, 0, 0, 20_000);
    exchange.end();
    expect(waited).not.toBe('timed-out');
    expect(Atomics.load(flag, 0)).toBe(1);
  });
});
