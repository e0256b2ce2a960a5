/**
 * The warm processes a measurer keeps between replicates, by key (an arm, or
 * an arm and a case): a live one is reused, a broken one is retired and
 * replaced. Retiring closes a process; what is learned only as it ends (a
 * crash after its last answer, a teardown that failed) comes back from
 * drain() as late failures. Warm lockstep and instruction counts share it.
 */
import type { WarmProcess } from '@rtbench/process';
import type { LateFailure } from '../measurer.ts';

/** What a pool keeps: a warm process, and whatever its measurer knows of it. */
export interface Kept {
  readonly process: WarmProcess;
}

export type ClosedOutcome = Awaited<ReturnType<WarmProcess['close']>>;

export class WarmPool<H extends Kept> {
  private readonly held = new Map<string, H>();
  /** Processes retired and not yet ended, and what the ended ones told that no drain has given yet. */
  private readonly closing = new Set<Promise<void>>();
  private told: LateFailure[] = [];
  private readonly failed: unknown[] = [];

  /**
   * @param closed what a process's end tells about the cases it served (called once it has ended)
   * @param killed what to clean up after a process killed by dispose()
   */
  constructor(
    private readonly closed: (held: H, outcome: ClosedOutcome) => LateFailure[],
    private readonly killed?: (held: H) => void,
  ) {}

  /** The live process under `key`, or a new one from `start`, which is given the broken one it replaces (retired here). */
  take(key: string, start: (replaced: H | undefined) => H): H {
    const held = this.held.get(key);
    if (held?.process.usable) return held;
    if (held) this.retire(key);
    const fresh = start(held);
    this.held.set(key, fresh);
    return fresh;
  }

  /** Whether a usable process is kept under `key`. */
  holds(key: string): boolean {
    return this.held.get(key)?.process.usable === true;
  }

  /**
   * Moves the process kept under `from` to `to` (a process started ahead of
   * its case, given the case it serves): false, and nothing moved, when no
   * usable process is kept under `from` or one is already kept under `to`.
   */
  adopt(from: string, to: string): boolean {
    const held = this.held.get(from);
    if (!held?.process.usable || this.held.has(to)) return false;
    this.held.delete(from);
    this.held.set(to, held);
    return true;
  }

  /** Ends the process under `key`; what its end tells comes with the next drain(). */
  retire(key: string): void {
    const held = this.held.get(key);
    if (!held) return;
    this.held.delete(key);
    // Awaited by ended() or drain(), perhaps a set later: a failed close is kept for them, not left unhandled.
    const closing: Promise<void> = held.process
      .close()
      .then(
        (outcome) => void this.told.push(...this.closed(held, outcome)),
        (error: unknown) => void this.failed.push(error),
      )
      .finally(() => this.closing.delete(closing));
    this.closing.add(closing);
  }

  /** The processes kept, by key. */
  entries(): [string, H][] {
    return [...this.held];
  }

  /** Waits for the retired processes to end, and gives what their ends told. */
  async drain(): Promise<LateFailure[]> {
    await this.ended();
    return this.settled();
  }

  /** Resolves once every retired process has ended (what they told stays for the next drain); rejects with a close that failed. */
  async ended(): Promise<void> {
    await Promise.all(this.closing);
    if (this.failed.length) throw this.failed.shift();
  }

  /**
   * What the retired processes that have ended told, without waiting for the
   * others (their news comes with a later call): a set's processes end while
   * the next set's start, and the run's end drains them all.
   */
  settled(): LateFailure[] {
    const told = this.told;
    this.told = [];
    return told;
  }

  /** Kills every process still kept (the run is over or stopped). */
  dispose(): void {
    for (const held of this.held.values()) {
      held.process.kill();
      this.killed?.(held);
    }
    this.held.clear();
  }
}
