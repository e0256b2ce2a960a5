/** node:http, as a Node.js user writes it; binds 127.0.0.1 on a port the kernel picks and prints it first. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HELLO } from './routes.ts';

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/') {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(HELLO);
    return;
  }
  if (req.method === 'POST' && req.url === '/echo') {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400);
        res.end('bad json');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(parsed));
    });
    return;
  }
  res.writeHead(404);
  res.end('not found');
});

server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`));
