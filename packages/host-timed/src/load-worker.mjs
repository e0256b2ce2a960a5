// The load generator, in its own process (pinned to its own core by the host).
// argv[2]: JSON { url, method, body?, headers?, connections, pipelining, warmupMs, durationMs }.
// Prints one JSON line: what LoadReport in load.ts declares. Plain JS, so the
// host's node runs it without a TypeScript loader.
import autocannon from 'autocannon';

const options = JSON.parse(process.argv[2]);

function run(durationMs, record) {
  return new Promise((resolve, reject) => {
    const latencies = [];
    let started = 0;
    let counted = 0;
    let end = Infinity;
    const instance = autocannon(
      {
        url: options.url,
        method: options.method,
        ...(options.body !== undefined ? { body: options.body } : {}),
        headers: options.headers ?? {},
        connections: options.connections,
        pipelining: options.pipelining,
        duration: durationMs / 1000,
        // Ticks of 100 ms, so a run stops close to its duration (the default 1 s tick rounds it up).
        sampleInt: 100,
        timeout: 10,
      },
      (error, result) => (error ? reject(error) : resolve({ result, latencies, counted, windowMs: Math.min(end, performance.now()) - started })),
    );
    instance.on('start', () => {
      started = performance.now();
      end = started + durationMs;
    });
    // Our own count and latencies: autocannon's histogram keeps whole milliseconds, too coarse on loopback.
    instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
      if (!record || performance.now() > end) return;
      counted++;
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTimeMs);
    });
  });
}

function quantile(sorted, q) {
  if (!sorted.length) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

if (options.warmupMs > 0) await run(options.warmupMs, false);
const cpuBefore = process.cpuUsage();
const { result, latencies, counted, windowMs } = await run(options.durationMs, true);
const cpu = process.cpuUsage(cpuBefore);
latencies.sort((a, b) => a - b);
process.stdout.write(
  `${JSON.stringify({
    requests: counted,
    windowMs,
    requestsPerSecond: (counted / windowMs) * 1000,
    latencyP2_5Ms: quantile(latencies, 0.025),
    latencyP50Ms: quantile(latencies, 0.5),
    latencyP97_5Ms: quantile(latencies, 0.975),
    latencyP99Ms: quantile(latencies, 0.99),
    latencyMaxMs: latencies.length ? latencies[latencies.length - 1] : NaN,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    generatorCpuMs: (cpu.user + cpu.system) / 1000,
  })}\n`,
);
