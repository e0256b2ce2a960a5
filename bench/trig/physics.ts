/**
 * A small "physics step": particles steered by their heading, pulled to the
 * origin, slowed by drag, each with a phase. Every update calls the math
 * library the way game and simulation code does: sin, cos, atan2, exp, pow,
 * log and two sqrt per particle.
 */
import { seededRandom } from '@rtbench/core';
import { settle } from './inputs.ts';

/** 250 particles × 4 steps = 1000 particle updates (7000 libm calls) per iteration. */
export const PARTICLES = 250;
export const STEPS = 4;
const DT = 1 / 60;

export interface World {
  /** Resets to the seeded start, runs STEPS steps, returns a settled checksum. */
  run(): number;
}

export function createWorld(seed: number): World {
  const rnd = seededRandom(seed);
  const start = [0, 1, 2, 3, 4].map(() => new Float64Array(PARTICLES));
  const [x0, y0, vx0, vy0, ph0] = start as [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array];
  for (let i = 0; i < PARTICLES; i++) {
    x0[i] = (rnd() - 0.5) * 20;
    y0[i] = (rnd() - 0.5) * 20;
    vx0[i] = (rnd() - 0.5) * 4;
    vy0[i] = (rnd() - 0.5) * 4;
    ph0[i] = rnd() * 2 * Math.PI;
  }
  const x = new Float64Array(PARTICLES);
  const y = new Float64Array(PARTICLES);
  const vx = new Float64Array(PARTICLES);
  const vy = new Float64Array(PARTICLES);
  const ph = new Float64Array(PARTICLES);

  return {
    run() {
      // Same start every iteration: equal work per iteration, and the state
      // cannot drift into denormals or infinities over millions of runs.
      x.set(x0);
      y.set(y0);
      vx.set(vx0);
      vy.set(vy0);
      ph.set(ph0);
      let energy = 0;
      for (let s = 0; s < STEPS; s++) {
        for (let i = 0; i < PARTICLES; i++) {
          const px = x[i]!;
          const py = y[i]!;
          const pvx = vx[i]!;
          const pvy = vy[i]!;
          const r = Math.sqrt(px * px + py * py);
          const speed = Math.sqrt(pvx * pvx + pvy * pvy) + 1e-9;
          const steer = Math.atan2(pvy, pvx) + 0.3 * Math.sin(ph[i]!);
          const thrust = 2 * Math.exp(-0.5 * r);
          const drag = (0.05 * Math.pow(speed, 1.5)) / speed;
          const ax = Math.cos(steer) * thrust - 0.1 * px - drag * pvx;
          const ay = Math.sin(steer) * thrust - 0.1 * py - drag * pvy;
          vx[i] = pvx + ax * DT;
          vy[i] = pvy + ay * DT;
          x[i] = px + vx[i]! * DT;
          y[i] = py + vy[i]! * DT;
          ph[i] = ph[i]! + DT * (1 + Math.log(1 + speed));
          energy += 0.5 * speed * speed;
        }
      }
      let sum = energy;
      for (let i = 0; i < PARTICLES; i++) sum += x[i]! + y[i]!;
      return settle(sum);
    },
  };
}
