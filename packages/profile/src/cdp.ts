/**
 * A Chrome DevTools Protocol client over one WebSocket, for workerd's
 * inspector on 127.0.0.1. The host may be Node 20, which has no WebSocket
 * client without a flag, and one loopback connection with text frames needs
 * little of the protocol (RFC 6455): the upgrade, masked text frames out,
 * unmasked frames in (fragmented or not, 7/16/64-bit lengths), ping/pong and
 * close. So no dependency.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type { Socket } from 'node:net';

export interface CdpSession {
  send<T = unknown>(method: string, params?: Record<string, unknown>): Promise<T>;
  close(): void;
  /** Resolves when the connection is gone. */
  closed: Promise<void>;
}

/** Encodes one masked client frame. */
export function encodeFrame(opcode: number, payload: Buffer): Buffer {
  const mask = randomBytes(4);
  const len = payload.length;
  const head = len < 126 ? Buffer.alloc(2) : len < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
  head[0] = 0x80 | opcode;
  if (len < 126) head[1] = 0x80 | len;
  else if (len < 65536) {
    head[1] = 0x80 | 126;
    head.writeUInt16BE(len, 2);
  } else {
    head[1] = 0x80 | 127;
    head.writeBigUInt64BE(BigInt(len), 2);
  }
  const body = Buffer.alloc(len);
  for (let i = 0; i < len; i++) body[i] = payload[i]! ^ mask[i & 3]!;
  return Buffer.concat([head, mask, body]);
}

/** Reads frames from a byte stream; calls back with each whole message (text or binary) and control frames. */
export class FrameReader {
  private buffered: Buffer = Buffer.alloc(0);
  private fragments: Buffer[] = [];

  constructor(private readonly onFrame: (opcode: number, payload: Buffer) => void) {}

  push(chunk: Buffer): void {
    this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
    for (;;) {
      const b = this.buffered;
      if (b.length < 2) return;
      const fin = (b[0]! & 0x80) !== 0;
      const opcode = b[0]! & 0x0f;
      const masked = (b[1]! & 0x80) !== 0;
      let len = b[1]! & 0x7f;
      let offset = 2;
      if (len === 126) {
        if (b.length < 4) return;
        len = b.readUInt16BE(2);
        offset = 4;
      } else if (len === 127) {
        if (b.length < 10) return;
        len = Number(b.readBigUInt64BE(2));
        offset = 10;
      }
      const maskKey = masked ? b.subarray(offset, offset + 4) : undefined;
      if (masked) offset += 4;
      if (b.length < offset + len) return;
      let payload = b.subarray(offset, offset + len);
      if (maskKey) {
        payload = Buffer.from(payload);
        for (let i = 0; i < payload.length; i++) payload[i] = payload[i]! ^ maskKey[i & 3]!;
      }
      this.buffered = b.subarray(offset + len);
      if (opcode >= 0x8) {
        this.onFrame(opcode, payload);
        continue;
      }
      this.fragments.push(payload);
      if (opcode !== 0) this.firstOpcode = opcode;
      if (fin) {
        const whole = this.fragments.length === 1 ? this.fragments[0]! : Buffer.concat(this.fragments);
        this.fragments = [];
        this.onFrame(this.firstOpcode, whole);
      }
    }
  }

  private firstOpcode = 1;
}

/** Opens a CDP session on `ws://127.0.0.1:<port><path>`. */
export function connectCdp(port: number, path: string, timeoutMs = 10_000): Promise<CdpSession> {
  return new Promise((resolve, reject) => {
    const key = randomBytes(16).toString('base64');
    const req = request({ host: '127.0.0.1', port, path, headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Key': key, 'Sec-WebSocket-Version': '13' } });
    const timer = setTimeout(() => {
      req.destroy(new Error(`no WebSocket upgrade from 127.0.0.1:${port}${path} within ${timeoutMs} ms`));
    }, timeoutMs);
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.on('response', (res) => {
      clearTimeout(timer);
      res.resume();
      reject(new Error(`127.0.0.1:${port}${path} answered HTTP ${res.statusCode} instead of upgrading to a WebSocket`));
    });
    req.on('upgrade', (_res, socket: Socket, head: Buffer) => {
      clearTimeout(timer);
      resolve(session(socket, head));
    });
    req.end();
  });
}

function session(socket: Socket, head: Buffer): CdpSession {
  let nextId = 1;
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void; method: string }>();
  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));
  let isClosed = false;
  const fail = (why: string): void => {
    if (isClosed) return;
    isClosed = true;
    for (const p of pending.values()) p.reject(new Error(`${p.method}: ${why}`));
    pending.clear();
    resolveClosed();
  };
  const reader = new FrameReader((opcode, payload) => {
    if (opcode === 0x9) socket.write(encodeFrame(0xa, payload));
    else if (opcode === 0x8) {
      socket.end();
      fail('the inspector closed the connection');
    } else if (opcode === 0x1) {
      let message: { id?: number; result?: unknown; error?: { message?: string } };
      try {
        message = JSON.parse(payload.toString('utf8')) as typeof message;
      } catch {
        return;
      }
      if (typeof message.id !== 'number') return; // an event
      const p = pending.get(message.id);
      if (!p) return;
      pending.delete(message.id);
      if (message.error) p.reject(new Error(`${p.method}: ${message.error.message ?? JSON.stringify(message.error)}`));
      else p.resolve(message.result);
    }
  });
  socket.on('data', (chunk: Buffer) => reader.push(chunk));
  socket.on('error', (error) => fail(error.message));
  socket.on('close', () => fail('the connection closed'));
  if (head.length) reader.push(head);
  return {
    send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
      if (isClosed) return Promise.reject(new Error(`${method}: the connection is closed`));
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject, method });
        socket.write(encodeFrame(0x1, Buffer.from(JSON.stringify({ id, method, params }), 'utf8')));
      });
    },
    close() {
      if (!isClosed) {
        try {
          socket.write(encodeFrame(0x8, Buffer.alloc(0)));
        } catch {
          /* gone */
        }
      }
      socket.destroy();
      fail('closed by the host');
    },
    closed,
  };
}
