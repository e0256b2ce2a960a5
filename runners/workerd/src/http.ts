/**
 * Sending the Job to the worker and reading the protocol lines it streams
 * back. node:http rather than fetch(): undici's default body timeout (300 s)
 * would cut off a long job, and the plugin already has its own timeout.
 */
import { request } from 'node:http';

export interface ResponseEnd {
  /** HTTP status, if a response began. */
  status?: number;
  /** True when the whole body arrived. */
  complete: boolean;
  /** Why the exchange stopped early (connection refused or reset). */
  error?: string;
}

/** A streamed POST: lines go out as the host writes them (the job, then a lockstep job's commands) while the response streams back. */
export interface JobExchange {
  send(line: string): void;
  /** No more lines: the request body ends. */
  end(): void;
  /** Resolves when the response has ended or the exchange failed. */
  done: Promise<ResponseEnd>;
}

export function openJobExchange(port: number, onText: (text: string) => void): JobExchange {
  let status: number | undefined;
  let resolveDone!: (end: ResponseEnd) => void;
  const done = new Promise<ResponseEnd>((resolve) => (resolveDone = resolve));
  const req = request(
    {
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/',
      agent: false,
      // No content-length: the body is chunked and stays open for commands.
      headers: { 'content-type': 'text/plain' },
    },
    (res) => {
      status = res.statusCode;
      res.setEncoding('utf8');
      res.on('data', onText);
      res.on('error', (error) => resolveDone({ status, complete: false, error: error.message }));
      res.on('close', () => resolveDone({ status, complete: res.complete }));
    },
  );
  req.on('error', (error) => resolveDone({ ...(status !== undefined ? { status } : {}), complete: false, error: error.message }));
  req.flushHeaders();
  return {
    send: (line) => {
      if (req.writableEnded || req.destroyed) return;
      req.write(`${line}\n`);
      // node:http corks the socket on a body write and uncorks it on the next tick, so a line would wait for
      // whatever else the host does in this tick: after opening a case, a save of the run, while
      // the other runtimes, written to over pipes, already set the case up. Out now, as theirs are.
      req.socket?.uncork();
    },
    end: () => {
      if (!req.writableEnded) req.end();
    },
    done,
  };
}
