/**
 * Measurers' records: the blocks a measurer saves in a run beyond the fields
 * every run and round has, one module per measurer. The measurer's
 * descriptor declares them (record.rounds) and loading validates them
 * through it; what reads a saved run (report) imports them from here and no
 * measuring code.
 */
export { countsOf, countsRoundSchema, type CountsRound } from './instructions.ts';
export { loadOf, loadRoundSchema, type LoadOutcomes, type LoadRound } from './host-timed.ts';
