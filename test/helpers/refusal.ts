/** What tests of refusals share: a refusal's one message, and a fresh temporary folder. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { UsageError } from '@rtbench/core/usage-error';

/** The message of the UsageError `f` throws; a test failure if it throws anything else or nothing. */
export function refusal(f: () => unknown): string {
  try {
    f();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

/** A new empty folder under the system's temporary folder. */
export const tempFolder = (prefix: string): string => mkdtempSync(join(tmpdir(), `rtbench-${prefix}-`));
