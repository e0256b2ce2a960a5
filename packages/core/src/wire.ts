/**
 * The protocol's constants: its version, the marker of its lines, the
 * commands the host sends, the token's form. No imports: the in-runtime
 * protocol (protocol.ts) and the host's schemas (protocol-schema.ts) both
 * take them from here, so neither imports the other's code.
 */
export const PROTOCOL_VERSION = 1;
/** Prefix of every protocol line on a runtime's stdout. */
export const LINE_MARKER = '@@rtbench ';

/** Host -> process commands of a lockstep job, one per line (stdin; workerd: a request body). */
export const SAMPLE_COMMAND = 'sample';
export const FINISH_COMMAND = 'finish';
/** A serve job's command that opens a case: the word, a space, the case id as a JSON string (one line whatever the id holds). */
export const CASE_COMMAND = 'case';
/** As CASE_COMMAND, and the case stays set up and warm after its answer for a later open in the same process. */
export const KEEP_COMMAND = 'keep';

/**
 * A fixed-iteration lockstep job's command (instruction counts): empty the
 * young generation (RuntimeEnvironment.collectYoung), answered as a sample of
 * no calls. The host counts without it: it zeroes the counter after the
 * answer, so the next sample starts from the same young generation in every
 * process without its count holding the collection.
 */
export const COLLECT_COMMAND = 'collect';

/** Tokens are 32 lowercase hex digits (128 random bits). */
export const TOKEN_PATTERN = /^[0-9a-f]{32}$/;
