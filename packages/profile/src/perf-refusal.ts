/**
 * perf's own reason when it refuses to record, from the profiled process's
 * stderr (perf runs as its wrapper and writes there before it exits 255):
 * the kernel's perf_event_paranoid level, or a missing permission. Without
 * it the profile's failure would read only "exited with 255".
 */
export function perfRefusal(stderr: string): string | undefined {
  const level = /perf_event_paranoid setting is (-?\d+)/.exec(stderr)?.[1];
  const limited = /Access to performance monitoring and observability operations is limited|No permission to enable .* event|perf_event_open\(.*\) failed.*(?:EACCES|EPERM|Permission denied)/s.test(stderr);
  if (level === undefined && !limited) return undefined;
  const setting = level === undefined ? 'kernel.perf_event_paranoid' : `kernel.perf_event_paranoid is ${level}`;
  return `perf refused to record: ${setting}, and this process lacks CAP_PERFMON; lower it as root (sysctl kernel.perf_event_paranoid=1) or run rtbench as root`;
}
