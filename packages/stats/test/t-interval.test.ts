import { describe, expect, it } from 'vitest';
import { studentTQuantile, studentTTwoSided } from '../src/index.ts';

describe('Student t', () => {
  it('gives the tabulated 97.5% quantiles', () => {
    // Tables: df 1 12.706, 2 4.303, 3 3.182, 5 2.571, 10 2.228, 30 2.042.
    const table: [number, number][] = [[1, 12.706], [2, 4.303], [3, 3.182], [5, 2.571], [10, 2.228], [30, 2.042]];
    for (const [df, t] of table) expect(studentTQuantile(0.975, df)).toBeCloseTo(t, df <= 2 ? 3 : 1);
    expect(Math.abs(studentTQuantile(0.975, 3) - 3.182)).toBeLessThan(0.05);
  });

  it('gives two-sided p-values that match the quantiles', () => {
    for (const df of [1, 2, 4, 8, 20]) expect(studentTTwoSided(studentTQuantile(0.975, df), df)).toBeCloseTo(0.05, 2);
  });
});

describe('studentTQuantile in the tails (the adjusted levels a table reads)', () => {
  it('inverts the exact two-sided p-value to 1e-9 for whole degrees of freedom', () => {
    for (const df of [3, 4, 6, 19]) for (const p of [0.975, 0.995, 0.9995, 0.99995]) expect(studentTTwoSided(studentTQuantile(p, df), df)).toBeCloseTo(2 * (1 - p), 9);
    // tabulated: t(0.9995, 4) = 8.610
    expect(studentTQuantile(0.9995, 4)).toBeCloseTo(8.610, 3);
  });
});

// Reference values from an independent computation: Python's scipy.stats.t (2·sf and ppf), scipy 1.17.1.
const DFS = [1, 2, 3, 4, 5, 6, 7, 9, 12, 19, 30, 61];
const T_VALUES = [0.1, 0.7, 1.5, 2.5, 4, 10];
const TWO_SIDED: number[][] = [
  [0.936548965138893, 0.6111997755715705, 0.3743340836219977, 0.24223788318168682, 0.15595826075473865, 0.06345103486110713],
  [0.9294654384141402, 0.5563930246328654, 0.2723931248910011, 0.12961172022151082, 0.05719095841793663, 0.00985245702332569],
  [0.9266523488008059, 0.5343269983047636, 0.23058386524482294, 0.08770664700806556, 0.028008456010146152, 0.0021283990584141503],
  [0.9251558409394532, 0.5225001655934502, 0.208, 0.06676654481198814, 0.016130089900092546, 0.000562003622715991],
  [0.9242301411546604, 0.5151489483148164, 0.1939036802424733, 0.05449009934237626, 0.01032341548083145, 0.00017094757574296363],
  [0.9236019518987916, 0.5101433809507595, 0.18428073614148202, 0.0465282322841673, 0.007118977963748101, 5.7919827549536234e-5],
  [0.9231480596047924, 0.5065175521956, 0.17729848698997, 0.04099221858575289, 0.005189913349296813, 2.1394202890772802e-5],
  [0.9225364479566812, 0.501619039216145, 0.16785065605707505, 0.033861827682985735, 0.0031104283103858543, 3.578237431924736e-6],
  [0.9219955704568258, 0.49727415379070755, 0.15945750351320687, 0.02791539957132524, 0.0017616962443950267, 3.5813236876723737e-7],
  [0.9213919497652545, 0.4924100882249371, 0.15004853074227162, 0.02174041116839744, 0.000766192337228645, 5.263026162335899e-9],
  [0.9210096117902712, 0.48932044349967163, 0.144065929128646, 0.01811564906806669, 0.0003818456360837564, 4.575251408229618e-11],
  [0.920672258459252, 0.48658845539036766, 0.13877267728075784, 0.015124056972334224, 0.00017379600084591065, 1.7830677850169985e-14],
];
const LEVELS = [0.6, 0.9, 0.975, 0.995, 0.99995];
const QUANTILES: number[][] = [
  [0.32491969623290634, 3.0776835371752544, 12.706204736174694, 63.656741162871526, 6366.197671316637],
  [0.2886751345948128, 1.8856180831641272, 4.302652729749462, 9.924843200918287, 99.99249984375004],
  [0.2766706623326898, 1.637744353696209, 3.1824463052837078, 5.840909309733355, 28.000130010950002],
  [0.2707222947075976, 1.533206274058944, 2.7764451051977934, 4.604094871349992, 15.544100581546113],
  [0.2671808657041451, 1.4758840488244815, 2.5705818356363146, 4.032142983555228, 11.17771007027887],
  [0.2648345329335734, 1.4397557472651483, 2.4469118511449786, 3.7074280213248065, 9.08234632729417],
  [0.2631668613520229, 1.4149239276505086, 2.364624251592784, 3.4994832973504924, 7.884584262416738],
  [0.260955336473911, 1.3830287383966329, 2.262157162798205, 3.249835541592126, 6.593682583944882],
  [0.25903274567688733, 1.356217334023205, 2.1788128296672284, 3.0545395893929013, 5.694465793270642],
  [0.25692281979615467, 1.3277282090267986, 2.0930240544083087, 2.8609346064649794, 4.897461588862216],
  [0.2556053649519128, 1.3104150253913955, 2.0422724563012378, 2.7499956535672254, 4.482417175409786],
  [0.25445488470559624, 1.295584571275215, 1.999623584994939, 2.6588571266539263, 4.163731971136276],
];

describe('Student t against an independent computation, odd and even df', () => {
  it('the two-sided p-value of ±t is exact (to 1e-12), whatever the sign of t', () => {
    DFS.forEach((df, i) =>
      T_VALUES.forEach((t, j) => {
        expect(studentTTwoSided(t, df)).toBeCloseTo(TWO_SIDED[i]![j]!, 12);
        expect(studentTTwoSided(-t, df)).toBe(studentTTwoSided(t, df));
      }),
    );
    expect(studentTTwoSided(0, 7)).toBe(1);
    expect(studentTTwoSided(Infinity, 7)).toBe(0);
  });

  it('the quantile is exact (to 1e-9 relative) in both tails, and the median is 0', () => {
    DFS.forEach((df, i) =>
      LEVELS.forEach((p, j) => {
        const want = QUANTILES[i]![j]!;
        expect(Math.abs(studentTQuantile(p, df) / want - 1)).toBeLessThan(1e-9);
        expect(Math.abs(studentTQuantile(1 - p, df) / -want - 1)).toBeLessThan(1e-9);
      }),
    );
    for (const df of [1, 2, 3, 10]) expect(studentTQuantile(0.5, df)).toBe(0);
  });

  it('refuses what has no answer: p outside (0, 1), df below 1 or not a whole number', () => {
    for (const [p, df] of [[0, 5], [1, 5], [-0.1, 5], [0.5, 0.5], [0.5, 0], [Number.NaN, 5], [0.9, 2.5]] as const) expect(() => studentTQuantile(p, df)).toThrow(/studentTQuantile: p in \(0, 1\) and a whole df >= 1/);
    for (const df of [0, 2.5, -1]) expect(() => studentTTwoSided(1, df)).toThrow(/studentTTwoSided: df must be a whole number >= 1/);
  });
});
