/**
 * The command reference (docs/reference/commands.md) as markdown, made from
 * the declarations the command line is parsed by and --help is made from:
 * every command, its usage, what it does and its options by section.
 * `npx tsx packages/cli/src/write-reference.ts` writes it; a test fails when the
 * committed page differs from what this makes.
 */
import { optionLabel, usageLine, type OptionSpec } from './args.ts';
import { optionsBySection, optionText, type CommandHelp } from './help.ts';

/** The command that rewrites the page, named on the page and in the staleness test. */
export const REGENERATE = 'npx tsx packages/cli/src/write-reference.ts';

/** Help text as markdown prose: `<suite>` is not an HTML tag, `*` not emphasis. */
const prose = (text: string): string => text.replace(/\\/g, '\\\\').replace(/</g, '&lt;').replace(/\*/g, '\\*');

/** Help text in a table cell: a `|` would also end the cell. */
const cell = (text: string): string => prose(text).replace(/\|/g, '\\|');

const optionName = (o: OptionSpec): string => {
  const short = o.short ? `\`-${o.short}\`, ` : '';
  return `${short}\`${optionLabel(o)}\`${o.formerly ? ` (formerly \`--${o.formerly.name}\`)` : ''}`;
};

function optionTable(options: readonly OptionSpec[]): string[] {
  return ['| option | what it does |', '|---|---|', ...options.map((o) => `| ${optionName(o)} | ${cell(optionText(o))} |`)];
}

/** A command's name: "bench" from "rtbench bench". */
const nameOf = (spec: CommandHelp): string => spec.command.split(' ').pop()!;

function commandSection(spec: CommandHelp, globalOptions: readonly OptionSpec[]): string[] {
  const own = spec.options.filter((o) => !globalOptions.includes(o));
  const lines = [`## ${nameOf(spec)}`, '', '```', `${usageLine(spec)} [options]`, '```', '', prose(spec.summary)];
  for (const paragraph of spec.details ?? []) lines.push('', prose(paragraph));
  for (const [title, list] of optionsBySection(own)) lines.push('', `**${title}**`, '', ...optionTable(list));
  lines.push('', `And the [global options](#global-options).`);
  return lines;
}

/** The whole page: an index of the commands, the global options, then one section per command. */
export function commandReference(program: string, commands: readonly CommandHelp[], globalOptions: readonly OptionSpec[]): string {
  const lines = [
    '# Command reference',
    '',
    `<!-- Generated from the CLI's own option declarations (packages/cli/src/commands/) by \`${REGENERATE}\`; ` +
      `packages/cli/test/command-reference.test.ts fails when this page is stale. Do not edit by hand. -->`,
    '',
    `Every command \`${program}\` takes and every option of each, as \`${program} <command> --help\` prints ` +
      `them. Run them as \`npx pnpm ${program} <command>\` in this checkout (\`npx pnpm bench <suite>\` for ` +
      `\`${program} bench\`). What the output means, command by command: [docs/commands.md](../commands.md).`,
    '',
    '| command | what it does |',
    '|---|---|',
    ...commands.map((c) => `| [\`${usageLine(c).replace(`${program} `, '')}\`](#${nameOf(c)}) | ${cell(c.summary)} |`),
    '',
    '## Global options',
    '',
    'Taken by every command, and with no command.',
    '',
    ...optionTable(globalOptions),
    '',
    ...commands.flatMap((c) => [...commandSection(c, globalOptions), '']),
  ];
  return lines.join('\n');
}
