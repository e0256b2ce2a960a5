/**
 * An error in what the user asked for: printed without a stack, exit code 2.
 * Declared in core, beneath every package that refuses input (the loaders,
 * the run, the saved runs, the planners, the CLI), so none imports another
 * package for it.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  /** The errors, each printed after its own "error:": one message (which may go on with a list), or several found at once. */
  readonly errors: readonly string[];

  constructor(message: string | readonly string[]) {
    super(typeof message === 'string' ? message : message.join('\n'));
    this.errors = typeof message === 'string' ? [message] : message;
  }
}
