/**
 * The timing method workerd depends on (core's EdgeTimer and measure loop),
 * run against a virtual machine: a clock that shows whole milliseconds, like
 * performance.now() inside workerd, whose reads cost virtual time, and a case
 * whose cost is known exactly. Deterministic: nothing here reads real time.
 */
import { seededRandom } from '../../../packages/core/src/random.ts';
import { describe, expect, it } from 'vitest';
import { EdgeTimer, probeClock, type Clock } from '../../../packages/core/src/clock.ts';
import { measure, warmUp, type MeasureOptions } from '../../../packages/core/src/measure.ts';
import { lockstepPreBatch } from '../../../packages/core/src/protocol.ts';


interface Machine {
  clock: Clock;
  /** Spend ns of virtual time. */
  spend(ns: number): void;
  readonly now: number;
}

interface MachineOptions {
  /** ns one clock read costs at the start... */
  readCostNs?: number;
  /** ...and at the end of the first second (a drifting machine). */
  readCostEndNs?: number;
  /** Chance that a read is preempted, and for how long. */
  preemptChance?: number;
  preemptNs?: number;
  seed?: number;
}

function machine(options: MachineOptions = {}): Machine {
  const { readCostNs = 70, readCostEndNs = readCostNs, preemptChance = 0, preemptNs = 3e6, seed = 1 } = options;
  const rand = seededRandom(seed);
  let t = 0;
  return {
    clock: {
      name: 'virtual ms',
      now() {
        const drift = readCostNs + (readCostEndNs - readCostNs) * Math.min(1, t / 1e9);
        t += drift * (0.97 + 0.06 * rand());
        if (rand() < preemptChance) t += preemptNs * rand();
        return Math.floor(t / 1e6) * 1e6;
      },
    },
    spend(ns) {
      t += ns;
    },
    get now() {
      return t;
    },
  };
}

const OPTIONS: MeasureOptions = { warmupMs: 100, timeMs: 300, minSamples: 5, maxSamples: 100_000, sampleMs: 0 };

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

async function measureCase(m: Machine, costNs: number, spike?: { atCall: number; ns: number }) {
  let calls = 0;
  const fn = (): number => {
    calls++;
    m.spend(costNs);
    if (spike && calls === spike.atCall) m.spend(spike.ns);
    return calls;
  };
  const info = probeClock(m.clock);
  expect(info).toMatchObject({ resolutionNs: 1e6, edgeAligned: true });
  return measure(fn, false, m.clock, info, OPTIONS);
}

describe('edge-aligned timing on a 1 ms clock (virtual machine)', () => {
  it.each([30, 1_000, 40_000])('recovers a %d ns case to within 1%%', async (costNs) => {
    const result = await measureCase(machine(), costNs);
    expect(median(result.samples) / costNs).toBeGreaterThan(0.99);
    expect(median(result.samples) / costNs).toBeLessThan(1.01);
    expect(Math.min(...result.samples)).toBeGreaterThanOrEqual(0);
  });

  it('follows a read cost that drifts by 15% during the process', async () => {
    const result = await measureCase(machine({ readCostNs: 70, readCostEndNs: 80 }), 1_000);
    expect(Math.abs(median(result.samples) / 1_000 - 1)).toBeLessThan(0.01);
  });

  it('is not thrown off by preemptions during spins and batches', async () => {
    const result = await measureCase(machine({ preemptChance: 1e-5, seed: 7 }), 1_000);
    expect(Math.abs(median(result.samples) / 1_000 - 1)).toBeLessThan(0.02);
    expect(Math.min(...result.samples)).toBeGreaterThanOrEqual(0);
  });

  it('sizes batches near two ticks even when a calibration batch is paused for 50 ms', async () => {
    // Call 12 falls in the first calibration batches (n = 1, 10, …).
    const result = await measureCase(machine(), 1_000, { atCall: 12, ns: 50e6 });
    const batchNs = result.iterationsPerSample * 1_000;
    expect(batchNs).toBeGreaterThan(0.5e6);
    expect(batchNs).toBeLessThan(8e6);
    expect(Math.abs(median(result.samples) / 1_000 - 1)).toBeLessThan(0.01);
  });

  it('ends a fixed warmup only once its batches are sized for the case as fast as it has become', async () => {
    // A case the JIT makes 1000x faster in calibration's last batches (call 3,000 of 3,333), on a machine whose reads
    // grow cheaper. A fixed 5 ms warmup has passed by the time calibration ends; sampling then with the batch size
    // chosen for the slow case gave 2 us batches that the drifting read cost made read 0, every one of them.
    const m = machine({ readCostNs: 80, readCostEndNs: 70 });
    let calls = 0;
    const fn = (): number => (m.spend(++calls < 3_000 ? 1_000 : 1), calls);
    const result = await measure(fn, false, m.clock, probeClock(m.clock), { ...OPTIONS, warmupMs: 5, timeMs: 5, minSamples: 3 });
    expect(Math.min(...result.samples)).toBeGreaterThan(0);
    expect(result.iterationsPerSample).toBeGreaterThan(0.5e6);
    expect(Math.abs(median(result.samples) - 1)).toBeLessThan(0.02);
  });

  it('ends a fixed warmup only once the fastest of its batches fills half a sample, in a process starved as it starts', async () => {
    // For its first 30 ms two of every three batches are paused for 1.5 ms (a set's processes starting together on a
    // loaded machine). Calibration's median of three read the 0.3 ns case as 1.5 ms a call and sized batches of one
    // call, whose samples, once the process ran freely, read 0 or a thousand times the case's cost.
    const m = machine({ seed: 1 });
    let batches = 0;
    const fn = Object.assign(() => 0, {
      runBatch: (n: number) => {
        if (m.now < 30e6 && ++batches % 3 !== 0) m.spend(1.5e6);
        m.spend(n * 0.3);
        return n;
      },
    });
    const result = await measure(fn, false, m.clock, probeClock(m.clock), { ...OPTIONS, warmupMs: 5, timeMs: 10 });
    expect(Math.min(...result.samples)).toBeGreaterThan(0);
    expect(result.iterationsPerSample * 0.3).toBeGreaterThan(0.5e6);
    expect(Math.abs(median(result.samples) / 0.3 - 1)).toBeLessThan(0.02);
  });

  it('keeps its spin rate at the fast end of recent ticks', () => {
    const m = machine({ readCostNs: 50, preemptChance: 2e-5, seed: 3 });
    const timer = new EdgeTimer(m.clock);
    expect(timer.spinNs).toBeGreaterThan(45);
    expect(timer.spinNs).toBeLessThan(55);
  });
});

describe('lockstep samples on a 1 ms clock (virtual machine)', () => {
  // A lockstep sample: the untimed pre-batch, then the timed batch, each ended on a clock edge. Waiting for one more
  // edge after the pre-batch's own would add a whole tick to every sample.
  it('cost the pre-batch, the batch and the edges that end them, and still recover the case', async () => {
    const m = machine({ seed: 5 });
    const costNs = 1_000;
    const fn = (): number => (m.spend(costNs), 1);
    const sampler = await warmUp(fn, false, m.clock, probeClock(m.clock), OPTIONS);
    const calls = sampler.iterationsPerSample + lockstepPreBatch(sampler.iterationsPerSample, sampler.batchNs);
    const idle = seededRandom(11);
    const overheads: number[] = [];
    const samples: number[] = [];
    for (let i = 0; i < 200; i++) {
      m.spend(3e6 * idle()); // the process sat idle while other arms sampled
      const before = m.now;
      samples.push((await sampler.sample(true)).ns);
      overheads.push(m.now - before - calls * costNs);
    }
    const meanOverhead = overheads.reduce((a, b) => a + b, 0) / overheads.length;
    // Edge waits: about half a tick after the pre-batch, up to a tick after the batch (it starts on an edge, so where it
    // ends within a tick is the case's own), a whole tick every fourth timed batch: 1.75 ms here; 2.0 ms when the
    // pre-batch's edge also counted towards the refresh, 3.0 ms with one more edge before the batch.
    expect(meanOverhead).toBeGreaterThan(0.5e6);
    expect(meanOverhead).toBeLessThan(1.9e6);
    expect(median(samples) / costNs).toBeGreaterThan(0.99);
    expect(median(samples) / costNs).toBeLessThan(1.01);
  });

  it('leave a batch\'s untimed preparation (beforeBatch) out of its time', async () => {
    const m = machine({ seed: 9 });
    const costNs = 1_000;
    const fn = Object.assign((): number => (m.spend(costNs), 1), { beforeBatch: (n: number) => m.spend(n * 300) });
    const sampler = await warmUp(fn, false, m.clock, probeClock(m.clock), OPTIONS);
    const samples: number[] = [];
    for (let i = 0; i < 32; i++) samples.push((await sampler.sample(true)).ns);
    expect(median(samples) / costNs).toBeGreaterThan(0.99);
    expect(median(samples) / costNs).toBeLessThan(1.01);
  });
});
