/**
 * Writes docs/reference/commands.md, the command reference, from the CLI's
 * own option declarations (args/reference.ts makes it), and says whether it
 * changed. Run it after adding or changing a command or an option:
 * packages/cli/test/command-reference.test.ts fails until the page is rewritten.
 *
 *   npx tsx packages/cli/src/write-reference.ts
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { COMMANDS, GLOBAL_OPTIONS, PROGRAM } from './command-list.ts';
import { commandReference } from './args/reference.ts';

const page = join(import.meta.dirname, '..', '..', '..', 'docs', 'reference', 'commands.md');
const text = commandReference(PROGRAM, COMMANDS, GLOBAL_OPTIONS);
const before = existsSync(page) ? readFileSync(page, 'utf8') : undefined;
mkdirSync(dirname(page), { recursive: true });
writeFileSync(page, text);
console.log(`docs/reference/commands.md: ${before === text ? 'unchanged' : 'rewritten'} (${COMMANDS.length} commands)`);
