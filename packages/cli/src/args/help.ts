/**
 * --help text, made from the same declarations the command line is parsed
 * by (args.ts): a command's usage, what it does, and its options by section,
 * each option's text wrapped beside its name.
 */
import { optionLabel, positionalsLabel, usageLine, type ArgsSpec, type OptionSpec } from './args.ts';
import { columnsOf } from '../emit/colours.ts';

export interface CommandHelp extends ArgsSpec {
  /** One line: what the command does. */
  readonly summary: string;
  /** More, when one line is not enough; one paragraph per string. */
  readonly details?: readonly string[];
}

/** Words of `text` in lines of at most `width` characters (a longer word stands alone). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return line ? [...lines, line] : lines;
}

/** Help is read in a terminal (its width) or a pipe (100 columns). */
function helpWidth(stream: NodeJS.WriteStream = process.stdout): number {
  return Math.max(60, Math.min(120, columnsOf(stream)));
}

/** The left column's width for these labels: the longest, up to 34 (a longer one stands on its own line). */
const leftWidth = (labels: readonly string[]): number => Math.min(34, Math.max(0, ...labels.map((l) => l.length)));

/** Rows of a two-column list: the left column padded, the right one wrapped beside it (below it when the left is long). */
function twoColumns(rows: readonly [string, string][], width: number, left = leftWidth(rows.map(([l]) => l))): string[] {
  const textWidth = Math.max(30, width - 2 - left - 2);
  return rows.flatMap(([label, text]) => {
    const lines = wrap(text, textWidth);
    const pad = ' '.repeat(2 + left + 2);
    if (label.length > left) return [`  ${label}`, ...lines.map((l) => pad + l)];
    return lines.map((l, i) => (i === 0 ? `  ${label.padEnd(left)}  ${l}` : pad + l));
  });
}

/** What an option does, as --help and the command reference say it. */
export const optionText = (o: OptionSpec): string => o.help + (o.kind === 'list' ? ' (may be given more than once)' : '');

const optionRow = (o: OptionSpec): [string, string] => [`${o.short ? `-${o.short}, ` : '    '}${optionLabel(o)}`, optionText(o)];

/** The options by section title, in the order each section first appears. */
export function optionsBySection(options: readonly OptionSpec[]): Map<string, OptionSpec[]> {
  const sections = new Map<string, OptionSpec[]>();
  for (const o of options) {
    const title = o.section ?? 'Options';
    sections.set(title, [...(sections.get(title) ?? []), o]);
  }
  return sections;
}

/** The options in sections, aligned alike. */
function optionSections(options: readonly OptionSpec[], width: number): string[] {
  const left = leftWidth(options.map((o) => optionRow(o)[0]));
  return [...optionsBySection(options)].flatMap(([title, list]) => ['', `${title}:`, ...twoColumns(list.map(optionRow), width, left)]);
}

export function commandHelp(spec: CommandHelp, version: string, width = helpWidth()): string {
  const lines = [version, '', `Usage: ${usageLine(spec)} [options]`, '', ...wrap(spec.summary, width - 2).map((l) => `  ${l}`)];
  for (const paragraph of spec.details ?? []) lines.push('', ...wrap(paragraph, width - 2).map((l) => `  ${l}`));
  lines.push(...optionSections(spec.options, width));
  return `${lines.join('\n')}\n`;
}

export function rootHelp(
  program: string,
  commands: readonly CommandHelp[],
  globalOptions: readonly OptionSpec[],
  version: string,
  width = helpWidth(),
): string {
  const names = commands.map((c): [string, string] => [`${c.command.split(' ').pop()} ${positionalsLabel(c.positionals)}`.trim(), c.summary]);
  const lines = [version, '', `Usage: ${program} <command> [options]`, '', 'Commands:', ...twoColumns(names, width), ...optionSections(globalOptions, width)];
  lines.push('', `\`${program} <command> --help\` lists a command's options, e.g. \`${program} bench --help\`.`);
  return `${lines.join('\n')}\n`;
}
