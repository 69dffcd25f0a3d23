/**
 * Judges the move reader on generated physical play: every game recorded exactly, no invented
 * move, an alert for every illegal placement, a retraction for every takeback.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type PgnGame, readPgn } from '../../src/record/pgn.js';
import type { Sensing } from '../../src/sensors/snapshot.js';
import { type Handling, type PhysicalOptions, physicalPlay } from '../../src/simulation/physical-play.js';
import type { JudgedGame } from '../../src/simulation/real-play-judge.js';
import { runSensorEvents } from '../../src/tracker/run.js';
import { sharedPath } from '../helpers/shared.js';

export function liuDahuaGames(): PgnGame[] {
  const text = readFileSync(sharedPath('data/games/liu-dahua-1125-iccs.pgn'), 'utf8');
  return readPgn(text).map((r, i) => {
    if (!r.ok) throw new Error(`game ${i + 1}: ${r.error.message}`);
    return r.value;
  });
}

import type { Move, Position } from '../../src/rules/index.js';
import { positionOf } from '../helpers/positions.js';

export { positionOf };

export interface Tally {
  games: number;
  plies: number;
  frames: number;
  alerts: number;
  retracts: number;
  counts: Record<string, number>;
}

export const newTally = (): Tally => ({ games: 0, plies: 0, frames: 0, alerts: 0, retracts: 0, counts: {} });

/** Plays one game physically, reads it back, and asserts the record is exact. */
export function checkGame(
  label: string,
  start: Position,
  moves: readonly Move[],
  options: PhysicalOptions,
  tally: Tally,
  trackerOptions: { takebacks?: boolean } = {},
): void {
  const play = physicalPlay(start, moves, options);
  const run = runSensorEvents(start, play.events, { sensing: options.sensing, tracker: trackerOptions });
  if (!run.ok) throw new Error(run.error.message);
  const { game, emitted } = run.value;
  const recorded = game.moves.map((m) => m.iccs);
  const played = moves.map(
    (m) =>
      `${'abcdefghi'[m.from % 9]}${Math.floor(m.from / 9)}${'abcdefghi'[m.to % 9]}${Math.floor(m.to / 9)}`,
  );
  const illegalAlerts = emitted.filter((e) => e.type === 'alert' && e.alert.kind === 'illegal_move').length;
  const outOfSync = emitted.filter((e) => e.type === 'alert' && e.alert.kind === 'out_of_sync').length;
  const retracts = emitted.filter((e) => e.type === 'retract').length;
  const moveEvents = emitted.filter((e) => e.type === 'move').length;
  expect(recorded, `${label}: the recorded game`).toEqual(played);
  // Every move announced once: the game's moves plus those announced again after a takeback.
  expect(moveEvents, `${label}: move events`).toBe(played.length + retracts);
  expect(retracts, `${label}: retractions`).toBe(play.takebacks);
  // One alert for each piece set down where it may not go, and no false alarm.
  expect(illegalAlerts, `${label}: illegal-move alerts`).toBe(play.illegalPlacements);
  expect(outOfSync, `${label}: out-of-sync alerts`).toBe(0);
  tally.games++;
  tally.plies += played.length;
  tally.frames += play.events.length;
  tally.alerts += illegalAlerts;
  tally.retracts += retracts;
  for (const [k, v] of Object.entries(play.counts) as [Handling, number][])
    tally.counts[k] = (tally.counts[k] ?? 0) + v;
}

export { randomGame } from '../../src/simulation/real-play-judge.js';

export function report(title: string, sensing: Sensing, tally: Tally): void {
  console.log(
    `${title} (${sensing}): ${tally.games} games, ${tally.plies} plies, ${tally.frames} frames, ` +
      `${tally.alerts} illegal-move alerts, ${tally.retracts} takebacks; handling ${JSON.stringify(tally.counts)}`,
  );
}

/** One quarter of the 1,125 master games (the quarters run in parallel), in both sensing kinds. */
export function liuDahuaPart(part: number): void {
  const games = liuDahuaGames().filter((_, i) => i % 4 === part);
  describe.each(['occupancy', 'colour'] as const)(`liu-dahua games, part ${part}, sensing %s`, (sensing) => {
    it('records every game exactly under the physical handling model', () => {
      const tally = newTally();
      games.forEach((g, k) => {
        const index = k * 4 + part;
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
      report(`liu-dahua part ${part}`, sensing, tally);
    });
  });
}

/**
 * A game the reader could not record at once but said so in time, its record equal to the game
 * in the end (a doubt told apart by play, or the players' answer): alerted, and right.
 */
export function expectAlertedThenRight(judged: JudgedGame): void {
  expect(judged.classification.kind).toBe('alerted');
  expect(judged.classification.reader).toEqual(judged.classification.game);
}
