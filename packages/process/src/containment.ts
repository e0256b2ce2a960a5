/**
 * Containment: every process a runtime starts (a case's child, grandchild, a
 * detached or daemonised one) ends with that runtime's job; a process group is
 * not enough (`detached: true` or setsid() leaves it). Each process rtbench
 * starts gets a cell, chosen once per host: "cgroup", a cgroup v2 directory of
 * its own that the host steps into for the spawn (so the child is in it from
 * its first instruction) and ends with cgroup.kill; or "none", an environment
 * marker (RTBENCH_CELL) its descendants inherit, ended by PID (a process that
 * clears its environment escapes). The warden does either for the whole host
 * if the host dies. RTBENCH_CONTAINMENT=none chooses the second on purpose
 * (tests, and to compare the cost). Requirements and costs: docs/containment.md.
 */
import { mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { readCellMemoryPeak, type CellMemoryPeak } from './cgroup-memory-peak.ts';
import { guardCells, guardCgroup } from './warden.ts';

const CELL_ENV = 'RTBENCH_CELL';

export interface Cell {
  /** Added to the process's environment. */
  readonly env: Record<string, string>;
  /** Runs `spawn` so that the process it starts is in the cell from its start. */
  around<T>(spawn: () => T): T;
  /** Ends everything still in the cell; returns the PIDs it found (the process itself has exited by then). */
  end(): number[];
  /** Removes what the cell left on the host (an empty cgroup directory). */
  dispose(): void;
  /** Has the kernel hold the cell to `bytes` (memory.max) where it can; the host's watch (process.ts) holds it otherwise. */
  limitMemory(bytes: number): void;
  /** What the cell holds now, as the kernel counts it (memory.current); undefined when the host must add it up itself. */
  memoryInUse(): number | undefined;
  /** Whether the kernel ended a process of the cell at its memory.max. */
  killedForMemory(): boolean;
  /** The most the cell held, as the kernel counts it (memory.peak), or why that cannot be read. */
  memoryPeak(): CellMemoryPeak;
}

export interface Containment {
  readonly kind: 'cgroup' | 'none';
  /** For the saved run: what was used, or why nothing stronger was, and how memory is bounded. */
  readonly detail: string;
  cell(): Cell;
  /** CPU time used so far by every process started in a cell, ended ones included, in µs; undefined when only the host could add it up. */
  cpuUsageMicros(): number | undefined;
}

function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* gone already */
  }
}

/** The cgroup v2 directory this process is in, when the hierarchy is mounted (else undefined). */
function ownCgroup(): string | undefined {
  const line = readFileSync('/proc/self/cgroup', 'utf8').split('\n').find((l) => l.startsWith('0::'));
  if (line === undefined) return undefined;
  const mount = readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((l) => l.split(' '))
    // mountinfo: id parent dev root mountpoint options ... - fstype source superoptions
    .find((f) => f[f.indexOf('-') + 1] === 'cgroup2' && f[3] === '/');
  return mount ? join(mount[4]!, line.slice(3)) : undefined;
}

class CgroupContainment implements Containment {
  readonly kind = 'cgroup';
  private count = 0;
  constructor(
    readonly root: string,
    /** The host's own cgroup, which it returns to after each spawn. */
    private readonly home: string,
    /** Whether cells get the memory controller (memory.max, memory.current). */
    private readonly memoryController: boolean,
  ) {}
  get detail(): string {
    return `cgroup v2 (${this.root}; cgroup.kill ends each job's processes; ${this.memoryController ? 'memory.max holds each to the memory bound, and memory.peak gives the peak of one stopped at it' : `${POLLED_MEMORY} (no memory controller here); ${NO_MEMORY_PEAK}`})`;
  }
  cpuUsageMicros(): number | undefined {
    // The root's counter keeps the CPU of cells already removed (the kernel folds a child's counts into its parent).
    try {
      const match = /^usage_usec (\d+)$/m.exec(readFileSync(join(this.root, 'cpu.stat'), 'utf8'));
      return match ? Number(match[1]) : undefined;
    } catch {
      return undefined;
    }
  }
  cell(): Cell {
    const dir = join(this.root, String(++this.count));
    mkdirSync(dir);
    const members = (): number[] => {
      try {
        return readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
      } catch {
        return [];
      }
    };
    return {
      env: {},
      around: (spawn) => {
        try {
          writeFileSync(join(dir, 'cgroup.procs'), String(process.pid));
        } catch {
          return spawn(); // not contained; its process group still is
        }
        try {
          return spawn();
        } finally {
          // Checked at start-up (cgroupOrReason); should it fail now, end() spares the host.
          writeFileSync(join(this.home, 'cgroup.procs'), String(process.pid));
        }
      },
      end: () => {
        const found = members();
        const others = found.filter((pid) => pid !== process.pid);
        if (others.length === found.length) {
          if (found.length) writeFileSync(join(dir, 'cgroup.kill'), '1');
        } else for (const pid of others) kill(pid);
        return others;
      },
      dispose: () => removeWhenEmpty(dir),
      limitMemory: (bytes) => {
        if (!this.memoryController) return;
        try {
          writeFileSync(join(dir, 'memory.max'), String(bytes));
          // Swap would let it pass the bound slowly instead of being stopped (absent without swap accounting).
          if (existsSync(join(dir, 'memory.swap.max'))) writeFileSync(join(dir, 'memory.swap.max'), '0');
        } catch {
          /* the host's watch still holds it */
        }
      },
      memoryInUse: () => {
        if (!this.memoryController) return undefined;
        try {
          return Number(readFileSync(join(dir, 'memory.current'), 'utf8'));
        } catch {
          return undefined;
        }
      },
      memoryPeak: () => (this.memoryController ? readCellMemoryPeak(dir) : { unavailable: 'this cgroup has no memory controller, so no memory.peak' }),
      killedForMemory: () => {
        if (!this.memoryController) return false;
        try {
          return /^oom_kill [1-9]/m.test(readFileSync(join(dir, 'memory.events'), 'utf8'));
        } catch {
          return false;
        }
      },
    };
  }
}

/** rmdir of a cgroup fails while killed processes are still exiting: try again for a moment, then leave it to the host's exit. */
function removeWhenEmpty(dir: string, attempts = 50): void {
  try {
    rmdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EBUSY' && attempts > 0) setTimeout(() => removeWhenEmpty(dir, attempts - 1), 20).unref();
  }
}

/** PIDs of this user's processes whose environment carries `marker` (CELL_ENV=marker). */
function carrying(marker: string): number[] {
  const needle = `\0${CELL_ENV}=${marker}\0`;
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (`\0${readFileSync(`/proc/${entry}/environ`, 'latin1')}`.includes(needle)) found.push(Number(entry));
    } catch {
      /* another user's, or gone */
    }
  }
  return found;
}

/** How memory is bounded without a cgroup's memory controller (process.ts). */
const POLLED_MEMORY = 'the host reads the resident memory of each process tree every 200 ms and stops one past the memory bound';

/** Said where no cell has a memory.peak: a stopped process's peak is /proc's high-water marks alone. */
const NO_MEMORY_PEAK = "memory.peak unavailable (a stopped process's peak is its /proc high-water marks alone)";

class MarkerContainment implements Containment {
  readonly kind = 'none';
  private count = 0;
  readonly detail: string;
  constructor(private readonly why: string) {
    this.detail = `none: ${why}; what a job leaves behind is found by an environment marker, ended and reported; ${POLLED_MEMORY}; ${NO_MEMORY_PEAK}`;
  }
  cpuUsageMicros(): undefined {
    return undefined;
  }
  cell(): Cell {
    if (this.count === 0 && process.platform === 'linux') guardCells(process.pid);
    const marker = `${process.pid}.${++this.count}`;
    return {
      env: { [CELL_ENV]: marker },
      around: (spawn) => spawn(),
      end: () => {
        if (!existsSync('/proc/self/environ')) return [];
        const found = carrying(marker);
        for (const pid of found) kill(pid);
        return found;
      },
      dispose: () => {},
      limitMemory: () => {},
      memoryInUse: () => undefined,
      killedForMemory: () => false,
      memoryPeak: () => ({ unavailable: `not in a cgroup v2 cell (${this.why}), so no memory.peak` }),
    };
  }
}

/** Tries a cgroup of this host's own; the reason it cannot, otherwise. */
function cgroupOrReason(): CgroupContainment | string {
  if (process.platform !== 'linux') return `not on Linux (${process.platform})`;
  let own: string | undefined;
  try {
    own = ownCgroup();
  } catch (error) {
    return `cannot read /proc (${(error as Error).message})`;
  }
  if (own === undefined) return 'no cgroup v2 hierarchy is mounted';
  const root = join(own, `rtbench-${process.pid}-${Date.now().toString(36)}`);
  try {
    mkdirSync(root);
  } catch (error) {
    return `cgroup v2 at ${own} is not writable by this user (${(error as NodeJS.ErrnoException).code})`;
  }
  if (!existsSync(join(root, 'cgroup.kill'))) {
    rmdirSync(root);
    return 'the kernel has no cgroup.kill (before 5.14)';
  }
  // The host steps into its cells for each spawn: it must be allowed to, and to step back.
  try {
    writeFileSync(join(root, 'cgroup.procs'), String(process.pid));
    writeFileSync(join(own, 'cgroup.procs'), String(process.pid));
  } catch (error) {
    try {
      writeFileSync(join(own, 'cgroup.procs'), String(process.pid));
    } catch {
      /* it never left */
    }
    rmdirSync(root);
    return `this user may not move processes between cgroups at ${own} (${(error as NodeJS.ErrnoException).code})`;
  }
  guardCgroup(root);
  // Cells get memory.max when this cgroup may hand the memory controller down (its parent must have handed it to this one).
  let memoryController = false;
  try {
    writeFileSync(join(root, 'cgroup.subtree_control'), '+memory');
    memoryController = true;
  } catch {
    /* not delegated here: the host's watch bounds memory */
  }
  // Whatever is left in it when the host exits normally: ended, and the directories removed (the warden retries).
  process.once('exit', () => {
    try {
      writeFileSync(join(root, 'cgroup.kill'), '1');
    } catch {
      /* nothing left */
    }
  });
  return new CgroupContainment(root, own, memoryController);
}

let chosen: Containment | undefined;

/** This host's containment, chosen on first use. */
export function containment(): Containment {
  if (!chosen) {
    const forced = process.env.RTBENCH_CONTAINMENT === 'none';
    const cgroup = forced ? 'RTBENCH_CONTAINMENT=none' : cgroupOrReason();
    chosen = typeof cgroup === 'string' ? new MarkerContainment(cgroup) : cgroup;
  }
  return chosen;
}
