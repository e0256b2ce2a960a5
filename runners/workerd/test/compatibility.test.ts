/**
 * A program's own compatibility settings checked against the workerd that
 * is to serve it, before any round: a date newer than the binary's own, a
 * date not on the calendar, a flag the binary's schema does not carry.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compatibilityProblem } from '../src/compatibility.ts';

// A stand-in for the binary: its schema's flag names, NUL-terminated, among other bytes (one across the 4 MiB chunk boundary).
const binary = join(mkdtempSync(join(tmpdir(), 'rtbench-workerd-compat-')), 'workerd');
const head = Buffer.from('\u0001nodejs_compat\u0000\u0002');
const filler = Buffer.alloc(4 * 1024 * 1024 - head.length - 6, 0x41);
writeFileSync(binary, Buffer.concat([head, filler, Buffer.from('\u0002global_navigator\u0000')]));
const target = { binary, version: '2026-11-17' };

describe('a Workers program on this workerd', () => {
  it('is served when its date is up to the binary\'s own and it knows every flag', () => {
    expect(compatibilityProblem(target, { date: '2026-11-17', flags: ['nodejs_compat', 'global_navigator'] })).toBeUndefined();
    expect(compatibilityProblem(target, { flags: [] })).toBeUndefined();
  });

  it('is refused in one clause for a newer date, a date not on the calendar, or an unknown flag', () => {
    expect(compatibilityProblem(target, { date: '2027-01-01', flags: [] })).toBe('its compatibility date 2027-01-01 is newer than this workerd (2026-11-17) serves: a date up to its own, or a newer workerd');
    expect(compatibilityProblem(target, { date: '2025-02-30', flags: [] })).toBe('its compatibility date 2025-02-30 is not a day of the calendar');
    expect(compatibilityProblem(target, { date: '2025-01-01', flags: ['nodejs_compat', 'nodejs_compat_v9', 'navigator'] })).toBe('its compatibility flags nodejs_compat_v9, navigator are not known to this workerd (2026-11-17)');
  });
});
