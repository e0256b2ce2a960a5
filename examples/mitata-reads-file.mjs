// A file that reads its input from disk while it loads. It runs on Node.js
// and Bun, and on Deno given the permission (--runtime "deno --allow-read");
// Deno without it and workerd (no access to your files) report its cases as
// unsupported, with the error as the reason.
import { readFileSync } from 'node:fs';
import { bench, run } from 'mitata';

const text = readFileSync(new URL('./data/words.txt', import.meta.url), 'utf8');

bench('split words', () => text.split(/\s+/).length);

await run();
