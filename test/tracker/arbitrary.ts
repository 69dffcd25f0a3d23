/** fast-check draws of generated physical play, shared by the property tests of the machine. */
import fc from 'fast-check';
import { DEFAULT_RATES, type Handling } from '../../src/simulation/physical-play.js';

const rate = fc.double({ min: 0, max: 0.9, noNaN: true });

/** How often each handling of the model happens (bounces, hovers, slides, captures, takebacks…). */
export const arbitraryRates = fc.record(
  Object.fromEntries(Object.keys(DEFAULT_RATES).map((k) => [k, rate])) as Record<Handling, typeof rate>,
);

/** The sensing kind, the seeds of the play and of a random game of up to `maxPlies`, buttons, setup. */
export const arbitraryPlay = (maxPlies: number) => ({
  sensing: fc.constantFrom('occupancy' as const, 'colour' as const),
  seed: fc.integer({ min: 1, max: 1_000_000 }),
  gameSeed: fc.integer({ min: 1, max: 1_000_000 }),
  plies: fc.integer({ min: 1, max: maxPlies }),
  buttons: fc.boolean(),
  setupFromEmpty: fc.boolean(),
});
