/** An error in what the user asked for (declared in core, beneath every package that refuses input): printed without a stack, exit code 2. */
export { UsageError } from '@rtbench/core/usage-error';

/**
 * "<subject>: <message>", with one prefix per line: a message that already
 * begins with the subject, or with one of `names` (shorter names the subject
 * is made from, e.g. the runtime spec "node@26" of the variant "node@26
 * --jitless"), is returned as it is, so no line reads "node@27: node@27: …".
 */
export function prefixedOnce(subject: string, message: string, ...names: string[]): string {
  const begins = (name: string): boolean => message === name || message.startsWith(`${name}:`) || message.startsWith(`${name} `);
  if (begins(subject) || names.some((name) => subject.startsWith(name) && begins(name))) return message;
  return `${subject}: ${message}`;
}
