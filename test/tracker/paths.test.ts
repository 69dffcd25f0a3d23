/**
 * Generated paths through the machine: fast-check draws the handling (how often pieces bounce,
 * hover, slide, are captured in each order or swapped, touched, misplaced, taken back, how often
 * buttons are pressed), the sensing kind and a random game; the machine must record the game
 * exactly on every path, and the paths together must pass through every state of the machine.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Game } from '../../src/game/game.js';
import { Position } from '../../src/rules/index.js';
import { physicalPlay } from '../../src/simulation/physical-play.js';
import { DEFAULT_TRACKER_OPTIONS } from '../../src/tracker/machine.js';
import { Tracker } from '../../src/tracker/tracker.js';
import { ManualClock } from '../../src/util/clock.js';
import { arbitraryPlay, arbitraryRates } from './arbitrary.js';
import { randomGame } from './physical-support.js';

/** Every state value path, like `playing.pendingCapture`. */
function statePaths(value: unknown, prefix = ''): string[] {
  if (typeof value === 'string') return [prefix + value];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) =>
    statePaths(v, `${prefix}${k}.`),
  );
}

describe('generated paths through the machine', () => {
  it('records the game exactly on every path and visits every state', () => {
    const visited = new Set<string>();
    fc.assert(
      fc.property(
        fc.record({ ...arbitraryPlay(40), takebacks: fc.boolean(), rates: arbitraryRates }),
        (p) => {
          const start = Position.default();
          const moves = randomGame(start, p.plies, p.gameSeed);
          const play = physicalPlay(start, moves, p);
          const game = Game.start(start, { playOn: true });
          if (!game.ok) throw new Error(game.error.message);
          const clock = new ManualClock(0);
          const tracker = new Tracker(
            game.value,
            { ...DEFAULT_TRACKER_OPTIONS, sensing: p.sensing, takebacks: p.takebacks },
            clock,
          );
          tracker.subscribeStates((value) => {
            for (const path of statePaths(value)) visited.add(path);
          });
          tracker.start();
          for (const e of play.events) {
            clock.advance(e.t - clock.now());
            tracker.send(e);
          }
          clock.advance(5000);
          tracker.stop();
          expect(game.value.moves.map((m) => m.move)).toEqual(moves);
        },
      ),
      { numRuns: 200, seed: 20261129 },
    );
    // Out of sync and a move the game refuses never happen in play that follows the handling model.
    const expected = [
      'setup.reading',
      'setup.wrong',
      'playing.idle',
      'playing.changing',
      'playing.settling',
      'playing.committing',
      'playing.waiting',
      'playing.takebackRefused',
      'playing.illegal.standing',
    ];
    for (const s of expected) expect(visited, s).toContain(s);
  });
});
