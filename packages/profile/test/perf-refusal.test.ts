/** perf's refusal to record is read from its message, so a native profile's failure says why (perf-refusal.ts). */
import { describe, expect, it } from 'vitest';
import { perfRefusal } from '../src/perf-refusal.ts';

/** What perf 6.1 writes when kernel.perf_event_paranoid forbids recording, before it exits 255. */
const PARANOID = `Error:
Access to performance monitoring and observability operations is limited.
Consider adjusting /proc/sys/kernel/perf_event_paranoid setting to open
access to performance monitoring and observability operations for processes
without CAP_PERFMON, CAP_SYS_PTRACE or CAP_SYS_ADMIN Linux capability.
More information can be found at 'Perf events and tool security' document:
https://www.kernel.org/doc/html/latest/admin-guide/perf-security.html
perf_event_paranoid setting is 4:
  -1: Allow use of (almost) all events by all users
      Ignore mlock limit after perf_event_mlock_kb without CAP_IPC_LOCK
>= 0: Disallow raw and ftrace function tracepoint access
>= 1: Disallow CPU event access
>= 2: Disallow kernel profiling
To make the adjusted perf_event_paranoid setting permanent preserve it
in /etc/sysctl.conf (e.g. kernel.perf_event_paranoid = <setting>)
`;

describe("perf's refusal", () => {
  it('names the paranoid level and what to do', () => {
    expect(perfRefusal(PARANOID)).toBe('perf refused to record: kernel.perf_event_paranoid is 4, and this process lacks CAP_PERFMON; lower it as root (sysctl kernel.perf_event_paranoid=1) or run rtbench as root');
  });

  it('says nothing about stderr that holds no refusal (a runtime banner, a crash)', () => {
    expect(perfRefusal('Welcome to Node.js v26.10.0.\nSegmentation fault\n')).toBeUndefined();
  });
});
