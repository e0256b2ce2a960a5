/**
 * Sending the Job to the worker and reading the protocol lines it streams
 * back. node:http rather than fetch(): undici's default body timeout (300 s)
 * would cut off a long job, and the runner already has its own timeout.
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

export function postJob(port: number, body: string, onText: (text: string) => void): Promise<ResponseEnd> {
  return new Promise((resolve) => {
    let status: number | undefined;
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        status = res.statusCode;
        res.setEncoding('utf8');
        res.on('data', onText);
        res.on('error', (error) => resolve({ status, complete: false, error: error.message }));
        res.on('close', () => resolve({ status, complete: res.complete }));
      },
    );
    req.on('error', (error) => resolve({ ...(status !== undefined ? { status } : {}), complete: false, error: error.message }));
    req.end(body);
  });
}
