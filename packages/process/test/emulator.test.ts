/** Telling an emulated process from a native one, from outside it. */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { emulatorOf } from '../src/emulator.ts';

describe.runIf(process.platform === 'linux')('emulatorOf', () => {
  it('calls a native process native, and a process that is gone unknown', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 300)'], { stdio: 'ignore' });
    try {
      expect(emulatorOf(child.pid!)).toBeUndefined();
      expect(emulatorOf(process.pid)).toBeUndefined();
    } finally {
      await new Promise((resolve) => child.once('exit', resolve));
    }
    expect(emulatorOf(child.pid!)).toBeUndefined();
  });
});
