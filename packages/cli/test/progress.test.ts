/** Progress output: a bar and an ETA on a terminal, a few plain lines elsewhere. */
import { describe, expect, it } from 'vitest';
import { displayWidth, formatClock } from '@rtbench/report';
import { addedRoundsMs, bar, etaMs, progressPrinter } from '../src/run/progress.ts';
import type { ProgressEvent } from '../../run/src/loop.ts';

function fakeStream(isTTY: boolean): NodeJS.WriteStream & { text: string } {
  const s = { isTTY, columns: 100, text: '', write(chunk: string) { s.text += chunk; return true; } };
  return s as unknown as NodeJS.WriteStream & { text: string };
}

const event = (done: number, total: number, extra: Partial<ProgressEvent> = {}): ProgressEvent => ({
  done, total, elapsedMs: done * 100, timedMs: 0, round: 0, rounds: 6, adaptive: false, caseId: 'parse', variantId: 'node', outcome: { status: 'ok', medianNs: 1500 }, ...extra,
});

describe('progress', () => {
  it('estimates the time left from the mean per job, capped by the budget only while rounds are added', () => {
    expect(etaMs({ done: 10, total: 40, elapsedMs: 1000, adaptive: false })).toBe(3000);
    expect(etaMs({ done: 10, total: 40, elapsedMs: 1000, adaptive: false }, 2000)).toBe(3000);
    expect(etaMs({ done: 10, total: 40, elapsedMs: 1000, adaptive: true }, 2000)).toBe(1000);
    expect(etaMs({ done: 0, total: 40, elapsedMs: 0, adaptive: false })).toBeUndefined();
    expect(addedRoundsMs({ elapsedMs: 1000, adaptive: false }, 3000, 10_000)).toBe(6000);
    expect(formatClock(65_000)).toBe('1:05');
    expect(formatClock(3_725_000)).toBe('1:02:05');
    expect(bar(5, 10, 10)).toBe('[█████░░░░░]');
  });

  it('prints about ten plain lines for a whole run when not on a terminal, plus every failure', () => {
    const stream = fakeStream(false);
    const p = progressPrinter(stream, { ci: false });
    for (let done = 1; done <= 200; done++) p.update(event(done, 200, done === 50 ? { outcome: { status: 'failed', message: 'boom\nstack' } } : {}));
    p.finish();
    const lines = stream.text.trim().split('\n');
    expect(lines.filter((l) => l.startsWith('progress '))).toHaveLength(10);
    expect(lines).toContain('failed: node · parse: boom');
    expect(stream.text).not.toContain('\r');
  });

  it('says an unsupported case once per runtime and reason, and counts the rest at the end', () => {
    for (const tty of [false, true]) {
      const stream = fakeStream(tty);
      const p = progressPrinter(stream, { ci: false });
      const unsupported = (done: number, variantId: string, message: string): ProgressEvent =>
        event(done, 40, { caseId: `case ${done}`, variantId, outcome: { status: 'unsupported', message } });
      for (let i = 1; i <= 30; i++) p.update(unsupported(i, 'workerd', 'the file reads files while loading'));
      p.update(unsupported(31, 'deno', 'the file reads files while loading'));
      p.update(unsupported(32, 'workerd', 'another reason'));
      p.update(event(33, 40, { outcome: { status: 'failed', message: 'boom' } }));
      p.update(event(34, 40, { outcome: { status: 'failed', message: 'boom' } }));
      p.finish();
      const said = stream.text.split(/[\n\r]/).filter((l) => /unsupported|failed/.test(l)).map((l) => l.replace(/^\x1b\[K/, ''));
      expect(said).toEqual([
        'unsupported: workerd · case 1: the file reads files while loading',
        'unsupported: deno · case 31: the file reads files while loading',
        'unsupported: workerd · case 32: another reason',
        'failed: node · parse: boom',
        'failed: node · parse: boom',
        'unsupported: 29 more jobs for the same reasons (the table lists every case)',
      ]);
    }
  });

  it('updates one line with a bar and an ETA on a terminal', () => {
    const stream = fakeStream(true);
    const p = progressPrinter(stream, { ci: false });
    p.update(event(3, 12));
    expect(stream.text).toMatch(/^\r\x1b\[K\[█████░+\] 3\/12 · 0:00 elapsed · ETA 0:01 · round 1\/6 · node · parse 1\.50 µs\/op$/);
    expect(stream.text).not.toContain('\n');
    p.finish();
    expect(stream.text.endsWith('\r\x1b[K')).toBe(true);
  });

  it("keeps a terminal's live line within its width when the case is named in CJK (two columns a character)", () => {
    const stream = fakeStream(true);
    const p = progressPrinter(stream, { ci: false });
    // 100 characters, 114 columns: cut to 99 characters it would still wrap, and \r would no longer return to its start.
    p.update(event(3, 12, { caseId: '文字列の連結と配列の並べ替え' }));
    const line = stream.text.replace('\r\x1b[K', '');
    // Cut before a character that would pass the width: 98 or 99 columns.
    expect(displayWidth(line)).toBeLessThanOrEqual(99);
    expect(displayWidth(line)).toBeGreaterThanOrEqual(98);
    expect(line.endsWith('…')).toBe(true);
  });

  it('uses plain lines in CI even on a terminal', () => {
    const stream = fakeStream(true);
    const p = progressPrinter(stream, { ci: true });
    p.update(event(12, 12));
    expect(stream.text).toMatch(/^progress 12\/12/);
  });
});
