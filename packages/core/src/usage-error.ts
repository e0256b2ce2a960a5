/**
 * The errors the user can act on, printed without a stack, exit code 2.
 * Declared in core, beneath every package that refuses input or a place (the
 * loaders, the run, the saved runs, the planners, the host, the CLI), so none
 * imports another package for them, and the CLI words one without loading
 * the module that threw it.
 */

/** An error in what the user asked for. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  /** The errors, each printed after its own "error:": one message (which may go on with a list), or several found at once. */
  readonly errors: readonly string[];

  constructor(message: string | readonly string[]) {
    super(typeof message === 'string' ? message : message.join('\n'));
    this.errors = typeof message === 'string' ? [message] : message;
  }
}

/**
 * A refusal that is not of the command line's words but of a place or a file the user can fix (a file that could not be
 * written, a runtime plug-in that could not be loaded, a release matrix's folder or merge refused): its message, one line.
 */
export class Refusal extends Error {}

/** A cache folder rtbench will not use; `dir` is the folder to fix (the CLI adds how, which depends on where its cache is). */
export class UnsafeCacheError extends Refusal {
  override readonly name = 'UnsafeCacheError';
  constructor(
    message: string,
    readonly dir: string,
  ) {
    super(message);
  }
}
