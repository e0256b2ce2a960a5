/**
 * Duet: a replicate of a case is a pair of warm processes, the baseline's and
 * one other arm's, each pinned to a CPU core of its own (taskset), that take
 * their samples at the same time: the host writes both sample commands, then
 * reads both answers, so sample i of each is one window of the machine's state
 * both met, and the set's ratio comes from the windows' ratios (stats'
 * pairRounds, as a lockstep set's turns). With more arms the baseline's
 * partner rotates round by round; the cores swap every round of partners, so
 * each pair meets both cores equally often. Everything else is warm lockstep's
 * (lockstep.ts: warmup, the conversation, corroboration by the host's clock
 * and the process's CPU time). What it is exposed to, and what was measured:
 * docs/duet.md.
 */
import { readFileSync } from 'node:fs';
import { DUET_RECORD } from '@rtbench/measurer-records';
import { linuxOnly } from '@rtbench/host/platform';
import { whichOnPath } from '@rtbench/process';
import { MeasurerRefused, type Arm, type MeasurerDescriptor, type MeasurerSetup, type PreparedMeasurer, type ReplicateContext } from '../measurer.ts';
import { LOCKSTEP_OWN, lockstepOptions, warmLockstepMeasurer, type Seat } from './lockstep.ts';
import { TIMING_DEFAULTS } from './timing-defaults.ts';

/** What prepare() found: the taskset binary and the two cores the arms are pinned to. */
interface DuetSetup {
  taskset: string;
  cores: readonly [number, number];
}

/**
 * The CPUs a process may run on, from its /proc status file's
 * Cpus_allowed_list ("0-3,6"); empty when the line is missing.
 */
export function allowedCpus(status: string): number[] {
  const list = /^Cpus_allowed_list:\s*(\S+)\s*$/m.exec(status)?.[1];
  if (!list) return [];
  const cpus: number[] = [];
  for (const part of list.split(',')) {
    const [from, to] = part.split('-').map(Number);
    if (!Number.isInteger(from)) continue;
    const last = to === undefined ? from! : to;
    for (let cpu = from!; cpu <= last; cpu++) cpus.push(cpu);
  }
  return cpus;
}

/**
 * Which arms a round samples, on which core: the first arm of the run still
 * asked (the baseline) beside one other, the partner rotating over the run's
 * other arms in its order round by round, and the two cores swapped after
 * every full rotation, so that over 2 × (arms − 1) rounds every arm meets the
 * baseline on both cores. A round whose partner has left the run (failed)
 * seats nobody: the rounds are the run's arms' shares, so an arm left does
 * not hand its rounds to another (which would pass --max-rounds). A lone arm
 * samples alone on the first core.
 */
export function seatsFor<A extends { id: string }>(asked: readonly A[], runArms: readonly A[], round: number, cores: readonly [number, number]): { arm: A; core: number; partner?: string }[] {
  const isAsked = (a: A): boolean => asked.some((b) => b.id === a.id);
  const inRunOrder = [...runArms, ...asked.filter((a) => !runArms.some((b) => b.id === a.id))];
  const anchor = inRunOrder.find(isAsked);
  if (!anchor) return [];
  const others = inRunOrder.filter((a) => a.id !== anchor.id);
  if (!others.length) return [{ arm: anchor, core: cores[0] }];
  const partner = others[round % others.length]!;
  if (!isAsked(partner)) return [];
  const swapped = Math.floor(round / others.length) % 2 === 1;
  return [
    { arm: anchor, core: swapped ? cores[1] : cores[0], partner: partner.id },
    { arm: partner, core: swapped ? cores[0] : cores[1], partner: anchor.id },
  ];
}

/** The two cores of this process's allowed CPUs the arms run on, or the line that refuses the duet. */
function prepareDuet(): PreparedMeasurer {
  const taskset = whichOnPath('taskset');
  if (!taskset) throw new MeasurerRefused('--schedule duet pins each arm to a core with taskset (util-linux), which is not on PATH: install util-linux, or use --schedule lockstep');
  let status = '';
  try {
    status = readFileSync('/proc/self/status', 'utf8');
  } catch {
    /* said below: no CPUs known */
  }
  const cpus = allowedCpus(status);
  if (cpus.length < 2) throw new MeasurerRefused(`--schedule duet runs two arms at once, one per core, and rtbench may use ${cpus.length === 1 ? `one core here (CPU ${cpus[0]})` : 'no core it can name here'}: use --schedule lockstep`);
  const setup: DuetSetup = { taskset, cores: [cpus[0]!, cpus[1]!] };
  return { setup };
}

function duetSetupOf(setup: MeasurerSetup): DuetSetup {
  if (!setup.own) throw new Error('a duet needs its cores and taskset (its prepare() finds them)');
  return setup.own as DuetSetup;
}

export const DUET: MeasurerDescriptor = {
  name: 'duet',
  chosenBy: 'schedule',
  record: DUET_RECORD,
  platforms: linuxOnly('a duet pins its processes to cores with taskset, which is Linux only; use --schedule lockstep'),
  measures: 'time per operation',
  timesCalls: true,
  needs: 'two CPU cores, taskset',
  prepare: prepareDuet,
  warmsInRuntime: true,
  help: 'per round two warm processes, the baseline and one other runtime, each pinned to its own core, sampled at the same time in shared windows (Linux, two cores or more)',
  defaults: TIMING_DEFAULTS,
  // With k arms a round pairs the baseline with one of the other k − 1, so k − 1 rounds give each arm the pair a lockstep round gives it.
  roundsPerPair: (arms) => Math.max(1, arms - 1),
  refuses: (variant) => (variant.plugin.startWarm ? undefined : `${variant.plugin.displayName} cannot keep a warm process, which a duet samples (use --schedule lockstep-per-case)`),
  build(setup) {
    const { taskset, cores } = duetSetupOf(setup);
    const seat = (arms: readonly Arm[], context: ReplicateContext): Seat[] => seatsFor(arms, context.runArms ?? arms, context.round, cores);
    const wrap = (core: number): { command: string; args: string[] } => ({ command: taskset, args: ['-c', String(core)] });
    return { measurer: warmLockstepMeasurer(lockstepOptions(setup, { minTurns: LOCKSTEP_OWN[setup.mode].minTurns }), { descriptor: DUET, seat, wrap }) };
  },
};
