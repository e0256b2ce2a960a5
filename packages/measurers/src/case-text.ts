/**
 * Text a case hands the host (an error's message and stack, warnings, the
 * reasons it gives for being unsupported) is cut to a bound here, once, before
 * the host maps, stores or shows it: a case that throws a 256 KB message costs
 * the host a bounded amount of work and the report a readable line. What was
 * cut is said at the cut.
 */

/** A message (error, warning, unsupported reason): longer ones are cut. */
export const MAX_MESSAGE_CHARS = 2_000;
/** A stack: lines longer than this are cut (the message heads it), and at most MAX_STACK_LINES lines are kept. */
const MAX_STACK_LINE_CHARS = 1_000;
export const MAX_STACK_LINES = 100;

/** `text` cut to `max` characters, with how much was left out. */
export function capText(text: string, max = MAX_MESSAGE_CHARS): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/** A stack with each line cut to MAX_STACK_LINE_CHARS and at most MAX_STACK_LINES lines: the frames survive a huge message. */
export function capStack(stack: string): string {
  const lines = stack.split('\n');
  const kept = lines.slice(0, MAX_STACK_LINES).map((line) => capText(line, MAX_STACK_LINE_CHARS));
  if (lines.length > MAX_STACK_LINES) kept.push(`… (${lines.length - MAX_STACK_LINES} more lines)`);
  return kept.join('\n');
}
