/** What json-reviver shows, as claims `rtbench claims json-reviver` checks (README.md, "The claim"). */
import { claim, faster, slower, within } from '@rtbench/core';

export const claims = [
  claim('A reviver makes JSON.parse at least 3× slower, on every runtime and at both sizes', {
    case: 'parse / identity reviver (arrow)',
    than: 'parse / no reviver',
    is: slower(3),
  }),
  claim('Reviver parsing is at least 1.5× faster on node@26 (V8 14.6) than on node@24 (V8 13.6)', {
    case: 'parse / identity reviver (arrow)',
    where: { size: '10kb' },
    on: ['node@26'],
    than: { variant: 'node@24' },
    is: faster(1.5),
  }),
  claim('On V8 14 and later, merely declaring the context parameter makes an identity reviver at least 1.3× slower', {
    case: 'parse / identity reviver declaring a context parameter',
    than: 'parse / identity reviver (arrow)',
    on: ['node', 'deno', 'workerd'],
    is: slower(1.3),
  }),
  claim('On Bun the context parameter costs nothing: within ±15% of the same reviver without it', {
    case: 'parse / identity reviver declaring a context parameter',
    than: 'parse / identity reviver (arrow)',
    where: { size: '10kb' },
    on: ['bun'],
    is: within('15%'),
  }),
];
