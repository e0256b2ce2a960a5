/**
 * The profiles section (--profile) as text: a terminal's padded columns or
 * markdown tables, one block after another. No colour: the section is
 * printed as it is, after the run's own view.
 */
import type { ProfileBlock, ProfileSection, ProfileTable } from '@rtbench/core/profile-view';
import { displayWidth, padToWidth } from '../width.ts';

function terminalTable(t: ProfileTable): string {
  const header = t.columns.map((c) => c.head);
  const widths = header.map((h, i) => Math.max(displayWidth(h), ...t.rows.map((r) => displayWidth(r[i]!))));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (t.columns[i]!.right ? padToWidth(c, widths[i]!, 'right') : i === cells.length - 1 ? c : padToWidth(c, widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), ...t.rows.map(line)].join('\n');
}

function markdownTable(t: ProfileTable): string {
  const esc = (s: string): string => s.replaceAll('|', '\\|');
  return [
    `| ${t.columns.map((c) => esc(c.head)).join(' | ')} |`,
    `| ${t.columns.map((c) => (c.right ? '---:' : '---')).join(' | ')} |`,
    ...t.rows.map((r) => `| ${r.map(esc).join(' | ')} |`),
  ].join('\n');
}

/** One block for a terminal: a table under its title, note and summary line. */
export function terminalProfileBlock(block: ProfileBlock): string {
  if (block.kind === 'heading') return `${block.what}: ${block.dir} (${block.opens})`;
  if (block.kind === 'missing') return block.text;
  return [...(block.title ? [block.title] : []), ...(block.note ? [block.note] : []), block.summary, terminalTable(block)].join('\n');
}

/** One block in markdown: a table under a #### title, its note in italics and the summary line. */
export function markdownProfileBlock(block: ProfileBlock): string {
  if (block.kind === 'heading') return `## ${block.what} (${block.dir})`;
  if (block.kind === 'missing') return block.text;
  const head = [...(block.title ? [`#### ${block.title}`] : []), ...(block.note ? [`_${block.note}_`] : [])];
  return [...head, ...(head.length ? [''] : []), block.summary, '', markdownTable(block)].join('\n');
}

export function renderProfileSection(section: ProfileSection, block: (b: ProfileBlock) => string): string {
  return `${section.blocks.map(block).join('\n\n')}\n`;
}
