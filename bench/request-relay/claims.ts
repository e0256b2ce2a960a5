/** What request-relay shows, as claims `rtbench claims request-relay` checks (README.md, "The claim"). */
import { claim, faster } from '@rtbench/core';

export const claims = [
  claim('Reading a binary frame with a DataView and one TextDecoder takes at least 2× less CPU than decoding and parsing the JSON body', {
    case: 'read body / binary frame: DataView + one TextDecoder',
    than: 'read body / JSON: TextDecoder + JSON.parse + field checks',
    is: faster(2),
  }),
];
