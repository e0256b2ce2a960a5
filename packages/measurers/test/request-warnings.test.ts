/** What the request measurer says under each of a round's three cases (the handler's outcomes under its own, not the empty handler's), and a line said once a run. */
import { describe, expect, it } from 'vitest';
import type { RequestRoundValues } from '@rtbench/host-timed';
import { figureWarnings, roundWarnings, sayingOnce } from '../src/measurers/request-cpu.ts';

function values(extra: Partial<RequestRoundValues> = {}): RequestRoundValues {
  return {
    ok: true,
    jsThreadMs: [1, 1, 1, 1],
    allThreadsMs: [1, 1, 1, 1],
    kinds: ['get', 'get', 'get', 'get'],
    waves: [0, 1, 2, 3],
    inFlight: 1,
    latencyMs: [2, 2, 2, 2],
    emptyMs: [0.1, 0.1],
    outcomes: { ok: 4, serverError: 0, threw: 1, notAResponse: 1, timedOut: 1 },
    jsThread: { tid: 1, name: 'node', main: true },
    threads: 7,
    unsettled: 0,
    answer: 'a',
    wallMs: 10,
    notes: [],
    consoleLines: 4,
    ...extra,
  };
}

describe("a request round's warnings", () => {
  it("put the handler's outcomes and console lines under its cases, and none of them under the empty handler's", () => {
    const handler = figureWarnings('jsThread', values());
    expect(handler).toEqual([
      'the handler threw on some requests (counted; their CPU is in the figures)',
      'the handler answered something that is not a Response on some requests (counted; their CPU is in the figures)',
      'some requests got no response in time (counted; they have no CPU figure)',
      'the handler wrote 1 console line per request (kept out of the table, their cost in the figures, counted in the saved run)',
    ]);
    expect(figureWarnings('allThreads', values())).toEqual(handler);
    expect(figureWarnings('emptyHandler', values())).toEqual([]);
    expect(figureWarnings('jsThread', values({ outcomes: { ok: 4, serverError: 2, threw: 0, notAResponse: 0, timedOut: 0 }, consoleLines: 0 }))).toEqual([]);
  });

  it("say the empty handler's requests cut short under its case alone", () => {
    const cut = values({ emptyProblem: 'an empty-handler request got no whole response' });
    expect(figureWarnings('emptyHandler', cut)).toEqual(["the empty handler's requests stopped early: an empty-handler request got no whole response"]);
    expect(figureWarnings('jsThread', cut).join('\n')).not.toContain('empty handler');
  });

  it('say what cut the round short, its notes and a JavaScript thread other than the main one under every case', () => {
    expect(roundWarnings(values())).toEqual([]);
    expect(roundWarnings(values({ problem: 'the node server exited with code 1 after 3 requests got no response', notes: ['the request handler left 1 process'], jsThread: { tid: 9, name: 'worker', main: false } }))).toEqual([
      'a round stopped early: the node server exited with code 1 after requests got no response',
      'the request handler left 1 process',
      'the JavaScript ran on a thread other than the main one (worker)',
    ]);
  });
});

describe('a line each handler of a run would say', () => {
  it('is said once a run: the NODE_ENV line of a brought Worker whose requests are three cases, said once', () => {
    const said: string[] = [];
    const say = sayingOnce((line) => said.push(line));
    const nodeEnv = 'react-page: react, react-dom read process.env.NODE_ENV, written in per arm: node "production"';
    for (const line of [nodeEnv, nodeEnv, 'another line', nodeEnv]) say(line);
    expect(said).toEqual([nodeEnv, 'another line']);
  });
});
