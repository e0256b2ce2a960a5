/**
 * The errors the user can act on, printed without a stack, exit code 2.
 * Declared in core, beneath every package that refuses input or a place, so
 * none imports another for them, and the CLI words one loading nothing more.
 */

/** An error in what the user asked for. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  /** The errors, each printed after its own "error:": one message (which may go on with a list), or several found at once. */
  readonly errors: readonly string[];
  /**
   * The error is one run's own, not the command line's: its suite could not be
   * made ready (an app that built on no arm). A command of many runs (claims)
   * says it and goes on with the others; a command of one run stops, exit 2.
   */
  readonly ofRun: boolean;

  constructor(message: string | readonly string[], options: { ofRun?: boolean } = {}) {
    super(typeof message === 'string' ? message : message.join('\n'));
    this.errors = typeof message === 'string' ? [message] : message;
    this.ofRun = options.ofRun === true;
  }
}

/** A place or file the user can fix, in one line: a file not written, a runtime plug-in not loaded, a matrix refused. */
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
