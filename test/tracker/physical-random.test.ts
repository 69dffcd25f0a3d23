// Random games, from the start and from random positions given by FEN, played physically.
import { describe, expect, it } from 'vitest';
import { makeFen, Position } from '../../src/rules/index.js';
import { physicalPlay } from '../../src/simulation/physical-play.js';
import { runSensorEvents } from '../../src/tracker/run.js';
import { checkGame, newTally, positionOf, randomGame, report } from './physical-support.js';

/** A position reached by random play (with moves left), as a FEN: starts of the random-position games. */
function randomStart(seed: number): Position {
  for (let attempt = 0; ; attempt++) {
    const plies = 10 + ((seed * 7 + attempt) % 50);
    const start = Position.default();
    for (const m of randomGame(start, plies, seed * 31 + attempt)) start.play(m);
    if (start.hasLegalMove()) return positionOf(makeFen(start.toSetup()));
  }
}

describe.each(['occupancy', 'colour'] as const)('random games, sensing %s', (sensing) => {
  it('from the start position', () => {
    const tally = newTally();
    for (let k = 0; k < 120; k++) {
      const start = Position.default();
      const moves = randomGame(start, 40 + (k % 80), 5000 + k);
      checkGame(`random game ${k}`, start, moves, { sensing, seed: 9000 + k, buttons: k % 3 === 0 }, tally);
    }
    report('random games from the start', sensing, tally);
  });

  it('from random positions given by FEN, set up from an empty board', () => {
    const tally = newTally();
    for (let k = 0; k < 120; k++) {
      const start = randomStart(k + 1);
      const moves = randomGame(start, 60, 7000 + k);
      checkGame(
        `random position ${k} (${makeFen(start.toSetup())})`,
        start,
        moves,
        { sensing, seed: 11000 + k, setupFromEmpty: k % 2 === 0, buttons: k % 3 === 1 },
        tally,
      );
    }
    report('random games from random positions', sensing, tally);
  });

  it('takebacks forbidden: each one is an alert and the move stands', () => {
    let forbidden = 0;
    let takebacks = 0;
    for (let k = 0; k < 40; k++) {
      const start = Position.default();
      const moves = randomGame(start, 60, 3000 + k);
      const play = physicalPlay(start, moves, { sensing, seed: 13000 + k, rates: { takeback: 0.15 } });
      const run = runSensorEvents(start, play.events, { sensing, tracker: { takebacks: false } });
      if (!run.ok) throw new Error(run.error.message);
      const { game, emitted } = run.value;
      expect(game.moves.map((m) => m.move)).toEqual(moves);
      expect(emitted.filter((e) => e.type === 'retract')).toHaveLength(0);
      const alerts = emitted.filter(
        (e) => e.type === 'alert' && e.alert.kind === 'takeback_forbidden',
      ).length;
      expect(alerts, `game ${k}`).toBe(play.takebacks);
      forbidden += alerts;
      takebacks += play.takebacks;
    }
    expect(takebacks).toBeGreaterThan(20);
    expect(forbidden).toBe(takebacks);
  });
});
