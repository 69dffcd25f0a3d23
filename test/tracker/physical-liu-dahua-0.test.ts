// Part 0 of 4 of the 1,125 master games (split so the test files run in parallel).
import { describe, it } from 'vitest';
import { checkGame, liuDahuaGames, newTally, positionOf, report } from './physical-support.js';

const PART = 0;
const games = liuDahuaGames().filter((_, i) => i % 4 === PART);

describe.each(['occupancy', 'colour'] as const)('liu-dahua games, part %#, sensing %s', (sensing) => {
  it('records every game exactly under the physical handling model', () => {
    const tally = newTally();
    games.forEach((g, k) => {
      const index = k * 4 + PART;
      checkGame(
        `game ${index + 1} (${sensing})`,
        positionOf(g.fen),
        g.moves.map((m) => m.move),
        {
          sensing,
          seed: 1000 * index + (sensing === 'colour' ? 7 : 3),
          setupFromEmpty: index % 5 === 0,
          buttons: index % 2 === 0,
        },
        tally,
      );
    });
    report(`liu-dahua part ${PART}`, sensing, tally);
  });
});
